import { credentialsEqual } from '@switchboard/auth';
import { findWebhookById, type Queryable, type Webhook } from '@switchboard/db';

/**
 * The webhook `id` names when `token` is its token, else null (the caller answers 404
 * `UNKNOWN_WEBHOOK` for both: no separate "invalid token"). The token is compared in constant
 * time. `id` must already be a validated snowflake.
 *
 * Not cached: the token routes (GET, PATCH, DELETE by token) are rare and need the whole row,
 * which one primary-key read gives current. Executions, the hot path, keep the few columns
 * they check in a cache proven current by the change feed (execute/lookup.ts).
 */
export async function findWebhookForExecution(db: Queryable, id: string, token: string): Promise<Webhook | null> {
  const webhook = await findWebhookById(db, id);
  if (webhook === null) return null;
  return credentialsEqual(token, webhook.token) ? webhook : null;
}
