import { storageKeys } from '@switchboard/contracts';
import { insertEmojis, type Pool } from '@switchboard/db';
import type { Storage } from '@switchboard/storage';
import { runConcurrently } from '../bulk-add/timed.ts';

/** A PNG signature: every purge object is this small, so the store's time is its requests'. */
export const PNG = Buffer.from('89504e470d0a1a0a', 'hex');

/** Emoji rows of `guildId`, each naming its object under storageKeys.emoji. */
export async function insertGuildEmojis(
  pool: Pool,
  guildId: string,
  creatorId: string,
  emojiIds: readonly string[],
): Promise<void> {
  await insertEmojis(
    pool,
    emojiIds.map((id) => ({
      id,
      guildId,
      name: `e_${id.slice(-10)}`,
      creatorId,
      storageKey: storageKeys.emoji(id),
      contentType: 'image/png',
      size: PNG.length,
    })),
  );
}

/** Uploads a PNG under every key, `concurrency` at a time. */
export async function uploadPngs(storage: Storage, keys: readonly string[], concurrency: number): Promise<void> {
  await runConcurrently(keys.length, concurrency, (index) =>
    storage.upload(keys[index]!, PNG, { contentType: 'image/png' }).then(() => {}),
  );
}
