import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findOperation, insertOperation, startOperation } from '@switchboard/admin-operations';
import { createLogger } from '@switchboard/logger';
import { createSnowflakeGenerator } from '@switchboard/snowflake';
import type { Storage } from '@switchboard/storage';
import { createPurgeGuildFixture } from '@switchboard/testkit/guilds';
import { storageFor, storedObjects } from '@switchboard/testkit/storage';
import { testSnowflakeWorkerId } from '@switchboard/testkit/ids';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { useTestPool } from '@switchboard/testkit/pool';
import { purgeRunner } from '../src/index.ts';

const environment = useTestEnvironment();
const pool = useTestPool(environment, 4);
const ids = createSnowflakeGenerator(testSnowflakeWorkerId());
const logger = createLogger('purge-test', 'silent');
let storage: Storage;

beforeAll(() => {
  storage = storageFor(environment);
});
afterAll(() => storage?.close());

const seedGuild = () => createPurgeGuildFixture(pool(), storage);

async function purge(adminId: string, request: unknown, store: Storage = storage) {
  const id = ids.next();
  await insertOperation(pool(), 'asset_purges', { id, requestedBy: adminId, request, auditLogReason: 'cleanup' });
  const run = purgeRunner({ pool: pool(), storage: store, ids, logger });
  const result = await run((await startOperation(pool(), 'asset_purges', id))!);
  return { id, result, run };
}

const present = (keys: string[]) => storedObjects(storage, keys);

describe('asset purge of a whole guild', () => {
  it('removes every asset row and object, clears the hashes, and a second run finds nothing', async () => {
    const { adminId, guildId, webhookId, keys } = await seedGuild();
    const first = await purge(adminId, { guild_id: guildId });
    expect(first.result.processed.map((item) => item.asset_type).sort()).toEqual([
      'emoji',
      'emoji',
      'icon',
      'sticker',
      'webhook_avatar',
    ]);
    expect(first.result.deleted_objects).toBe(5);
    expect(await present(keys)).toEqual([false, false, false, false, false]);
    const guild = await pool().query('SELECT icon_hash FROM guilds WHERE id = $1', [guildId]);
    expect(guild.rows[0]).toEqual({ icon_hash: null });
    const hook = await pool().query('SELECT avatar_hash FROM webhooks WHERE id = $1', [webhookId]);
    expect(hook.rows[0]).toEqual({ avatar_hash: null });

    const second = await purge(adminId, { guild_id: guildId });
    expect(second.result).toEqual({ processed: [], errors: [], deleted_objects: 0 });
  });

  it('survives the store failing after the rows went: the retry deletes the same objects and reports the same items', async () => {
    const { adminId, guildId, keys } = await seedGuild();
    const broken = { ...storage, deleteObjects: async () => Promise.reject(new Error('store unreachable')) } as Storage;
    const id = ids.next();
    await insertOperation(pool(), 'asset_purges', {
      id,
      requestedBy: adminId,
      request: { guild_id: guildId },
      auditLogReason: null,
    });
    await expect(
      purgeRunner({ pool: pool(), storage: broken, ids, logger })((await startOperation(pool(), 'asset_purges', id))!),
    ).rejects.toThrow('store unreachable');
    expect(await present(keys)).toEqual([true, true, true, true, true]);

    // The retry, as BullMQ would run it: the rows are gone, the recorded keys are not.
    const retried = await purgeRunner({ pool: pool(), storage, ids, logger })(
      (await startOperation(pool(), 'asset_purges', id))!,
    );
    expect(retried.processed).toHaveLength(5);
    expect(await present(keys)).toEqual([false, false, false, false, false]);
    expect(await findOperation(pool(), 'asset_purges', id)).toMatchObject({ status: 'completed', result: retried });
    // One audit entry, from the first run's committed transaction.
    const audits = await pool().query(
      `SELECT count(*)::int AS n FROM audit_logs WHERE target_id = $1 AND action = 'purge_guild_assets'`,
      [guildId],
    );
    expect(audits.rows[0]).toEqual({ n: 1 });
  });

  it('counts objects that were already gone from the store as deleted', async () => {
    const { adminId, guildId, keys } = await seedGuild();
    await storage.deleteObjects(keys.slice(0, 3));
    const { result } = await purge(adminId, { guild_id: guildId });
    expect(result.deleted_objects).toBe(5);
    expect(await present(keys)).toEqual([false, false, false, false, false]);
  });
});
