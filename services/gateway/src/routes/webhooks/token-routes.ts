import type { RequestHandler } from 'express';
import { updateWebhook, type Pool, type Webhook } from '@switchboard/db';
import { ApiError, validate } from '@switchboard/http';
import type { GatewayDeps } from '../../deps.ts';
import { deleteWebhookEverywhere } from './deletion.ts';
import { findWebhookForExecution } from './find-for-execution.ts';
import { presentWebhookForToken } from './presenter.ts';
import { tokenUpdateWebhookBody, webhookTokenParams } from './schemas.ts';
import { nameAndAvatarChanges } from './update.ts';

/**
 * The token-addressed routes: no user auth, the path token is the credential. Checks run in
 * Fluxer's order (docs/decisions.md#fluxer-webhook-routes-and-check-order): rate limit, path
 * parameters, body, then the token lookup, so a bad body with a bad token is 400 and an unknown id
 * or wrong token is 404 `UNKNOWN_WEBHOOK`. Responses carry no `user`.
 */

/** The webhook the validated path names, or 404 `UNKNOWN_WEBHOOK`. */
export async function webhookByToken(pool: Pool, params: { webhook_id: string; token: string }): Promise<Webhook> {
  const webhook = await findWebhookForExecution(pool, params.webhook_id, params.token);
  if (!webhook) throw new ApiError('UNKNOWN_WEBHOOK');
  return webhook;
}

export function getByToken({ pool }: GatewayDeps): RequestHandler {
  return async (req, res) => {
    const params = validate(webhookTokenParams, req.params);
    res.json(presentWebhookForToken(await webhookByToken(pool, params)));
  };
}

export function updateByToken({ pool, storage }: GatewayDeps): RequestHandler {
  return async (req, res) => {
    const params = validate(webhookTokenParams, req.params);
    const body = validate(tokenUpdateWebhookBody, req.body);
    const webhook = await webhookByToken(pool, params);
    const updated = await updateWebhook(pool, webhook.id, await nameAndAvatarChanges(storage, webhook, body));
    if (!updated) throw new ApiError('UNKNOWN_WEBHOOK');
    res.json(presentWebhookForToken(updated));
  };
}

export function deleteByToken(deps: GatewayDeps): RequestHandler {
  return async (req, res) => {
    const webhook = await webhookByToken(deps.pool, validate(webhookTokenParams, req.params));
    if (!(await deleteWebhookEverywhere(deps, webhook.id))) throw new ApiError('UNKNOWN_WEBHOOK');
    res.status(204).end();
  };
}
