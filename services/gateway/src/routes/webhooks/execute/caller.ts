import type { Response } from 'express';
import { hashCredential } from '@switchboard/auth';
import type { ExecutionWebhook } from '@switchboard/db';
import { responseLocal } from '@switchboard/http';
import { isWebhookOfToken, type ExecutionLookupFn } from './lookup.ts';
import type { TokenParams } from './params.ts';

/** Whether this request's caller proved to hold the webhook's token, once it was checked. */
const tokenHolder = responseLocal<boolean>('executeTokenHolder');

/** isWebhookOfToken, remembering the answer for the failure budget a refusal spends (index.ts). */
export function checkToken(
  res: Response,
  webhook: ExecutionWebhook | null,
  tokenHash: Buffer,
): webhook is ExecutionWebhook {
  const holds = isWebhookOfToken(webhook, tokenHash);
  tokenHolder.set(res, holds);
  return holds;
}

/**
 * Whether the caller of a refused execution holds the webhook's token: as the token check
 * found, or, for a refusal before it (a path that does not parse, a rate limit), looked up now.
 */
export async function holdsToken(res: Response, params: TokenParams, lookUp: ExecutionLookupFn): Promise<boolean> {
  const checked = tokenHolder.find(res);
  if (checked !== undefined) return checked;
  return isWebhookOfToken(await lookUp(params.webhook_id), hashCredential(params.token));
}
