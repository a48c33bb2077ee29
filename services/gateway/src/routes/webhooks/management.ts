import type { RequestHandler } from 'express';
import { generateWebhookToken } from '@switchboard/auth';
import { LIMITS } from '@switchboard/contracts';
import {
  createWebhookWithinLimits,
  findChannelById,
  findWebhookWithCreator,
  listChannelWebhooks,
  listGuildWebhooks,
  sealWebhookSecret,
} from '@switchboard/db';
import { ApiError, validate } from '@switchboard/http';
import { guildAccess } from '../../permissions/index.ts';
import { userPrincipal } from '../../user-auth/index.ts';
import { discardAvatar, storeAvatar } from './avatar-store.ts';
import { deleteWebhookEverywhere } from './deletion.ts';
import type { GatewayDeps } from '../../deps.ts';
import { presentWebhook } from './presenter.ts';
import { createWebhookBody } from './schemas.ts';
import { requireWebhookChannel } from './channel-type.ts';

/**
 * Handlers of the id-addressed routes. Each runs behind requireUser() and
 * requireGuildPermission(MANAGE_WEBHOOKS), which validated the path id and resolved its guild.
 */

/** POST /channels/{channel_id}/webhooks: 200 (not 201, as Fluxer) with the new webhook; text-like channels only. */
export function createWebhook({ pool, storage, ids, secrets }: GatewayDeps): RequestHandler {
  return async (req, res) => {
    const body = validate(createWebhookBody, req.body);
    const access = guildAccess(res);
    requireWebhookChannel(await findChannelById(pool, access.subjectId));
    const id = ids.next();
    // Stored first so the row never names a missing object; discarded if the row is refused.
    const avatarHash = body.avatar ? await storeAvatar(storage, id, body.avatar) : null;
    const result = await createWebhookWithinLimits(
      pool,
      {
        id,
        guildId: access.guildId,
        channelId: access.subjectId,
        creatorId: userPrincipal(res).userId,
        name: body.name,
        avatarHash,
        token: generateWebhookToken(),
        secret: typeof body.secret === 'string' ? sealWebhookSecret(secrets, id, body.secret) : null,
      },
      LIMITS.webhooks,
    ).catch(async (error: unknown) => {
      if (avatarHash) await discardAvatar(storage, id, avatarHash);
      throw error;
    });
    if ('full' in result) {
      if (avatarHash) await discardAvatar(storage, id, avatarHash);
      throw new ApiError(result.full === 'guild' ? 'MAX_WEBHOOKS_PER_GUILD' : 'MAX_WEBHOOKS');
    }
    res.status(200).json(presentWebhook(result.ok));
  };
}

export function listChannel({ pool }: GatewayDeps): RequestHandler {
  return async (_req, res) => {
    res.json((await listChannelWebhooks(pool, guildAccess(res).subjectId)).map(presentWebhook));
  };
}

export function listGuild({ pool }: GatewayDeps): RequestHandler {
  return async (_req, res) => {
    res.json((await listGuildWebhooks(pool, guildAccess(res).guildId)).map(presentWebhook));
  };
}

export function getWebhook({ pool }: GatewayDeps): RequestHandler {
  return async (_req, res) => {
    // Gone between the permission check and here: deleted concurrently.
    const webhook = await findWebhookWithCreator(pool, guildAccess(res).subjectId);
    if (!webhook) throw new ApiError('UNKNOWN_WEBHOOK');
    res.json(presentWebhook(webhook));
  };
}

export function removeWebhook(deps: GatewayDeps): RequestHandler {
  return async (_req, res) => {
    if (!(await deleteWebhookEverywhere(deps, guildAccess(res).subjectId))) throw new ApiError('UNKNOWN_WEBHOOK');
    res.status(204).end();
  };
}
