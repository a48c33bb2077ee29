import type { RequestHandler } from 'express';
import { LIMITS, Permission } from '@switchboard/contracts';
import {
  findChannelById,
  findWebhookById,
  moveWebhookWithinLimit,
  sealWebhookSecret,
  updateWebhook,
  type Pool,
  type PoolClient,
  type Webhook,
  type WebhookChanges,
  type WebhookWithCreator,
} from '@switchboard/db';
import { ApiError, validate } from '@switchboard/http';
import type { Storage } from '@switchboard/storage';
import { commitCredentialChange } from '../../change-feed.ts';
import { checkGuildPermission, guildAccess } from '../../permissions/index.ts';
import { userPrincipal } from '../../user-auth/index.ts';
import type { AvatarImage } from './avatar-image.ts';
import { storeAvatar } from './avatar-store.ts';
import type { GatewayDeps } from '../../deps.ts';
import { presentWebhook } from './presenter.ts';
import { updateWebhookBody } from './schemas.ts';
import { requireWebhookChannel } from './channel-type.ts';

/**
 * Name and avatar changes of a PATCH (by id or by token). A new avatar is stored before the
 * row names it. Old avatar objects are kept (see storeAvatar), and so is an image stored for
 * a PATCH that then fails: its key is content-derived, and it may be the current avatar.
 */
export async function nameAndAvatarChanges(
  storage: Storage,
  webhook: Webhook,
  body: { name?: string | undefined; avatar?: AvatarImage | null | undefined },
): Promise<WebhookChanges> {
  const changes: WebhookChanges = {};
  if (body.name !== undefined) changes.name = body.name;
  if (body.avatar === null) changes.avatarHash = null;
  else if (body.avatar !== undefined) changes.avatarHash = await storeAvatar(storage, webhook.id, body.avatar);
  return changes;
}

/**
 * A move target must be a channel of the webhook's own guild (else 404 `UNKNOWN_CHANNEL`,
 * docs/decisions.md#fluxer-moving-a-webhook) that can hold one (400 `INVALID_CHANNEL_TYPE`), and
 * the caller's permission is checked on it as on the source.
 */
async function checkMoveTarget(pool: Pool, webhook: Webhook, channelId: string, userId: string): Promise<void> {
  const channel = await findChannelById(pool, channelId);
  if (!channel || channel.guildId !== webhook.guildId) throw new ApiError('UNKNOWN_CHANNEL');
  requireWebhookChannel(channel);
  await checkGuildPermission(pool, {
    subject: 'channel',
    subjectId: channelId,
    userId,
    permission: Permission.MANAGE_WEBHOOKS,
  });
}

async function moveWebhook(
  client: PoolClient,
  webhook: Webhook,
  changes: WebhookChanges & { channelId: string },
): Promise<WebhookWithCreator | null> {
  const moved = await moveWebhookWithinLimit(client, webhook.id, webhook.guildId, changes, LIMITS.webhooks.perChannel);
  if (moved && 'full' in moved) throw new ApiError('MAX_WEBHOOKS');
  return moved?.ok ?? null;
}

/**
 * Writes the changes (a move under the guild lock). A secret set or cleared is a credential
 * change: the answer waits until no gateway process can still check executions against the
 * old one from memory (change-feed.ts), so from then on every replica enforces the new one.
 */
async function applyChanges(
  { pool, changeFeed }: GatewayDeps,
  webhook: Webhook,
  target: string | null,
  changes: WebhookChanges,
): Promise<WebhookWithCreator | null> {
  const changesSecret = changes.secret !== undefined;
  if (target === null && !changesSecret) return updateWebhook(pool, webhook.id, changes);
  return commitCredentialChange(pool, changeFeed, async (client) => {
    const updated =
      target !== null
        ? await moveWebhook(client, webhook, { ...changes, channelId: target })
        : await updateWebhook(client, webhook.id, changes);
    return { result: updated, changed: updated !== null && changesSecret };
  });
}

/** PATCH /webhooks/{webhook_id}: name, avatar, secret, and a move within the guild. */
export function updateWebhookById(deps: GatewayDeps): RequestHandler {
  const { pool, storage } = deps;
  return async (req, res) => {
    const body = validate(updateWebhookBody, req.body);
    const webhook = await findWebhookById(pool, guildAccess(res).subjectId);
    if (!webhook) throw new ApiError('UNKNOWN_WEBHOOK');
    // Only a different channel is acted on (docs/decisions.md#fluxer-moving-a-webhook).
    const target = body.channel_id !== undefined && body.channel_id !== webhook.channelId ? body.channel_id : null;
    if (target !== null) await checkMoveTarget(pool, webhook, target, userPrincipal(res).userId);
    const changes = await nameAndAvatarChanges(storage, webhook, body);
    // Write-only: set or cleared here, never read back by any route.
    if (body.secret !== undefined)
      changes.secret = body.secret === null ? null : sealWebhookSecret(deps.secrets, webhook.id, body.secret);
    const updated = await applyChanges(deps, webhook, target, changes);
    if (!updated) throw new ApiError('UNKNOWN_WEBHOOK');
    res.json(presentWebhook(updated));
  };
}
