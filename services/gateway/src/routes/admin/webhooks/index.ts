import type { RequestHandler } from 'express';
import { deleteWebhook, findWebhookById, listChannelWebhooks, listGuildWebhooks, type Webhook } from '@switchboard/db';
import { ApiError, validate } from '@switchboard/http';
import type { z } from 'zod';
import { actingKey, adminPrincipal, auditReason, recordAudit } from '../../../admin-auth/index.ts';
import { commitCredentialChange } from '../../../change-feed.ts';
import type { GatewayDeps } from '../../../deps.ts';
import type { AdminHandlers } from '../handlers.ts';
import { snowflakeFromPath } from '../path-id.ts';
import { presentWebhookForToken } from '../../webhooks/presenter.ts';
import { type adminWebhookResponseSchema, listWebhooksSchema } from './schemas.ts';

const TARGET_TYPE = 'webhook';

function presentAdminWebhook(webhook: Webhook): z.output<typeof adminWebhookResponseSchema> {
  const { token: _token, ...fields } = presentWebhookForToken(webhook);
  return {
    ...fields,
    creator_id: webhook.creatorId,
    signed: webhook.secret !== null,
    created_at: webhook.createdAt.toISOString(),
  };
}

/** POST /admin/webhooks/list: a guild's or a channel's webhooks, oldest first; none is `[]`, not 404. */
function list({ pool }: GatewayDeps): RequestHandler {
  return async (req, res) => {
    const body = validate(listWebhooksSchema, req.body);
    const webhooks =
      body.guild_id !== undefined
        ? await listGuildWebhooks(pool, body.guild_id)
        : await listChannelWebhooks(pool, body.channel_id!);
    res.json({ webhooks: webhooks.map(presentAdminWebhook) });
  };
}

function get({ pool }: GatewayDeps): RequestHandler {
  return async (req, res) => {
    const id = snowflakeFromPath(req.params['webhookId']);
    const webhook = id === null ? null : await findWebhookById(pool, id);
    if (!webhook) throw new ApiError('UNKNOWN_WEBHOOK');
    res.json(presentAdminWebhook(webhook));
  };
}

/**
 * Deletes the webhook with its audit entry, and answers once no gateway process accepts its
 * token any more (as the user route's delete: docs/decisions.md#credential-caches-and-the-change-feed).
 */
function remove({ pool, ids, changeFeed }: GatewayDeps): RequestHandler {
  return async (req, res) => {
    const id = snowflakeFromPath(req.params['webhookId']);
    if (id === null) throw new ApiError('UNKNOWN_WEBHOOK');
    const principal = adminPrincipal(res);
    const deleted = await commitCredentialChange(pool, changeFeed, async (client) => {
      const webhook = await deleteWebhook(client, id);
      if (webhook === null) return { result: false, changed: false };
      await recordAudit(client, ids, {
        ...actingKey(principal),
        targetType: TARGET_TYPE,
        targetId: id,
        action: 'delete_webhook',
        reason: auditReason(req),
        metadata: { guild_id: webhook.guildId, channel_id: webhook.channelId, name: webhook.name },
      });
      return { result: true, changed: true };
    });
    if (!deleted) throw new ApiError('UNKNOWN_WEBHOOK');
    res.status(204).end();
  };
}

export function webhookHandlers(deps: GatewayDeps): AdminHandlers {
  return {
    'POST /v1/admin/webhooks/list': list(deps),
    'GET /v1/admin/webhooks/:webhookId': get(deps),
    'DELETE /v1/admin/webhooks/:webhookId': remove(deps),
  };
}
