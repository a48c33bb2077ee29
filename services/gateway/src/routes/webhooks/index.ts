import { Router, type RequestHandler } from 'express';
import { LIMITS, Permission, type RateLimitBucketName } from '@switchboard/contracts';
import { jsonBody, methodNotAllowed } from '@switchboard/http';
import type { GatewayDeps } from '../../deps.ts';
import { requireGuildPermission, type AccessSubject } from '../../permissions/index.ts';
import { routeLimiter } from '../../route-limiter.ts';
import { userAuth } from '../../user-auth/index.ts';
import { TOKEN_PATH } from './execute/index.ts';
import { createWebhook, getWebhook, listChannel, listGuild, removeWebhook } from './management.ts';
import { deleteMessageByToken, editMessageByToken, getMessageByToken } from './token-messages.ts';
import { deleteByToken, getByToken, updateByToken } from './token-routes.ts';
import { updateWebhookById } from './update.ts';

/** Bodies that may carry an avatar: see LIMITS.body.avatarBodyBytes. */
export const AVATAR_BODY_LIMIT_BYTES = LIMITS.body.avatarBodyBytes;

const PATHS = {
  ofChannel: '/v1/channels/:channel_id/webhooks',
  ofGuild: '/v1/guilds/:guild_id/webhooks',
  byId: '/v1/webhooks/:webhook_id',
  byToken: TOKEN_PATH,
  tokenMessage: `${TOKEN_PATH}/messages/:message_id`,
} as const;

/**
 * Webhook management (docs/decisions.md#fluxer-webhook-routes-and-check-order,
 * #fluxer-webhook-resource). The id-addressed routes run: user resolution → rate limit (per user,
 * else per IP) → 401 → path id (400) → the subject's guild and MANAGE_WEBHOOKS (404 unknown, 403
 * MISSING_ACCESS / MISSING_PERMISSIONS) → body → handler. Execution (POST on the token path and its
 * format suffixes) lives in ./execute/.
 */
export function webhooksRouter(deps: GatewayDeps): Router {
  const { pool } = deps;
  const auth = userAuth(deps);
  const limit = routeLimiter(deps);
  const managing = (bucket: RateLimitBucketName, subject: AccessSubject, param: string): RequestHandler[] => [
    auth.resolve,
    limit(bucket),
    auth.require,
    requireGuildPermission(pool, { subject, param, permission: Permission.MANAGE_WEBHOOKS }),
  ];
  const avatarBody = jsonBody({ limitBytes: AVATAR_BODY_LIMIT_BYTES });

  const router = Router();
  router
    .route(PATHS.ofChannel)
    .get(...managing('webhook:list::channel_id', 'channel', 'channel_id'), listChannel(deps))
    .post(...managing('webhook:create::channel_id', 'channel', 'channel_id'), avatarBody, createWebhook(deps))
    .all(methodNotAllowed(['GET', 'HEAD', 'POST']));
  router
    .route(PATHS.ofGuild)
    .get(...managing('webhook:list::guild_id', 'guild', 'guild_id'), listGuild(deps))
    .all(methodNotAllowed(['GET', 'HEAD']));
  router
    .route(PATHS.byId)
    .get(...managing('webhook:read::webhook_id', 'webhook', 'webhook_id'), getWebhook(deps))
    .patch(...managing('webhook:update::webhook_id', 'webhook', 'webhook_id'), avatarBody, updateWebhookById(deps))
    .delete(...managing('webhook:delete::webhook_id', 'webhook', 'webhook_id'), removeWebhook(deps))
    .all(methodNotAllowed(['GET', 'HEAD', 'PATCH', 'DELETE']));
  // No 405 catch-all here: POST on this path is execution, served by ./execute/.
  router
    .route(PATHS.byToken)
    .get(limit('webhook:read::webhook_id'), getByToken(deps))
    .patch(limit('webhook:update::webhook_id'), avatarBody, updateByToken(deps))
    .delete(limit('webhook:delete::webhook_id'), deleteByToken(deps));
  // The webhook's own messages, with execute's bucket (token-messages.ts).
  const messageBody = jsonBody({ limitBytes: LIMITS.body.managementBytes });
  router
    .route(PATHS.tokenMessage)
    .get(limit('webhook:execute::webhook_id'), getMessageByToken(deps))
    .patch(limit('webhook:execute::webhook_id'), messageBody, editMessageByToken(deps))
    .delete(limit('webhook:execute::webhook_id'), deleteMessageByToken(deps))
    .all(methodNotAllowed(['GET', 'HEAD', 'PATCH', 'DELETE']));
  return router;
}

export {
  presentWebhook,
  presentWebhookForToken,
  type WebhookResponse,
  type WebhookTokenResponse,
} from './presenter.ts';
