import { credentialsEqual } from '@switchboard/auth';
import { findWebhookById, type Queryable, type Webhook } from '@switchboard/db';

/**
 * The webhook `id` names when `token` is its token, else null (the caller answers 404
 * `UNKNOWN_WEBHOOK` for both: no separate "invalid token"). The token is compared in constant
 * time. `id` must already be a validated snowflake.
 *
 * Not cached: a primary-key read is one short round trip, and reading the row every time means
 * a deleted webhook or a moved one is seen by every replica on the very next request, with no
 * invalidation protocol to get wrong.
 */
export async function findWebhookForExecution(db: Queryable, id: string, token: string): Promise<Webhook | null> {
  const webhook = await findWebhookById(db, id);
  if (webhook === null) return null;
  return credentialsEqual(token, webhook.token) ? webhook : null;
}
