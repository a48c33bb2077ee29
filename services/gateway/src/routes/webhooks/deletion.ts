import { deleteWebhook } from '@switchboard/db';
import { commitCredentialChange } from '../../change-feed.ts';
import type { GatewayDeps } from '../../deps.ts';

/**
 * Deletes a webhook, and answers once no gateway process can still accept its token from
 * memory (commitCredentialChange): from the response on, every replica answers 404
 * UNKNOWN_WEBHOOK. False when there was no such webhook.
 */
export function deleteWebhookEverywhere(
  { pool, changeFeed }: Pick<GatewayDeps, 'pool' | 'changeFeed'>,
  id: string,
): Promise<boolean> {
  return commitCredentialChange(pool, changeFeed, async (client) => {
    const deleted = (await deleteWebhook(client, id)) !== null;
    return { result: deleted, changed: deleted };
  });
}
