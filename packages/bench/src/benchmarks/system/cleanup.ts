import { deleteGuildAssets, type Pool } from '@switchboard/db';
import { closeRedis, createRedis } from '@switchboard/redis';
import type { Storage } from '@switchboard/storage';

const SCAN_COUNT = 1000;

/**
 * Deletes what the run left in its bucket, which must be empty once the run ends: every
 * archive's ZIP and the assets no purge reached.
 */
async function deleteRunObjects(pool: Pool, storage: Storage, purgeGuildIds: readonly string[]): Promise<void> {
  const { rows } = await pool.query<{ key: string }>(
    'SELECT storage_key AS key FROM archives WHERE storage_key IS NOT NULL',
  );
  const keys = rows.map((row) => row.key);
  for (const guildId of purgeGuildIds) {
    keys.push(...(await deleteGuildAssets(pool, guildId)).map((asset) => asset.storageKey));
  }
  await storage.deleteObjects(keys);
}

/**
 * Deletes every key under the run's own Redis prefix (a unique tag): the queues and their jobs,
 * delivery markers, reverse DNS answers and the like, which would otherwise linger on a shared
 * Redis.
 */
async function deleteRunKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = createRedis(redisUrl, { role: 'worker', name: 'bench-system-cleanup' });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', SCAN_COUNT);
      if (keys.length > 0) await redis.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    await closeRedis(redis);
  }
}

/** What the run leaves behind, removed once every process it started has stopped. */
export async function cleanUpRun(input: {
  env: Record<string, string>;
  pool: Pool;
  storage: Storage;
  purgeGuildIds: readonly string[];
}): Promise<void> {
  await deleteRunObjects(input.pool, input.storage, input.purgeGuildIds);
  await deleteRunKeys(input.env['REDIS_URL']!, input.env['REDIS_PREFIX']!);
}
