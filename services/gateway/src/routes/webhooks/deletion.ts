import { currentTransactionId, deleteWebhook, withTransaction } from '@switchboard/db';
import type { GatewayDeps } from '../../deps.ts';

/**
 * Deletes a webhook, and answers once no gateway process can still accept its token from
 * memory (change-feed.ts): from the response on, every replica answers 404 UNKNOWN_WEBHOOK.
 * False when there was no such webhook.
 */
export async function deleteWebhookEverywhere({ pool, changeFeed }: Pick<GatewayDeps, 'pool' | 'changeFeed'>, id: string): Promise<boolean> {
  const deletedIn = await withTransaction(pool, async (client) => ((await deleteWebhook(client, id)) ? currentTransactionId(client) : null));
  if (deletedIn === null) return false;
  await changeFeed?.applied(deletedIn);
  return true;
}
