import { Router } from 'express';
import { Permission } from '@switchboard/contracts';
import { methodNotAllowed } from '@switchboard/http';
import type { GatewayDeps } from '../../deps.ts';
import { requireGuildPermission } from '../../permissions/index.ts';
import { routeLimiter } from '../../route-limiter.ts';
import { userAuth } from '../../user-auth/index.ts';
import { listMessages } from './messages.ts';

const MESSAGES_PATH = '/v1/channels/:channel_id/messages';

/**
 * Channel read models. GET messages runs: user resolution → rate limit → 401 → channel id
 * (400) → the channel's guild and membership (404 unknown or DM channel, 403 MISSING_ACCESS)
 * → VIEW_CHANNEL and READ_MESSAGE_HISTORY in that channel, overwrites applied (403
 * MISSING_PERMISSIONS).
 */
export function channelsRouter(deps: GatewayDeps): Router {
  const { pool } = deps;
  const auth = userAuth(deps);
  const limiter = routeLimiter(deps)('channel:messages:read::channel_id');
  const reader = requireGuildPermission(pool, {
    subject: 'channel',
    param: 'channel_id',
    permission: Permission.VIEW_CHANNEL | Permission.READ_MESSAGE_HISTORY,
  });
  const router = Router();
  router
    .route(MESSAGES_PATH)
    .get(auth.resolve, limiter, auth.require, reader, listMessages(pool))
    .all(methodNotAllowed(['GET', 'HEAD']));
  return router;
}
