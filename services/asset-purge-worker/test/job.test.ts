import { describe, expect, it } from 'vitest';
import { findOperation } from '@switchboard/admin-operations';
import { ASSET_PURGE_JOB, storageKeys } from '@switchboard/contracts';
import { createSnowflakeGenerator } from '@switchboard/snowflake';
import { createPurgeGuildFixture } from '@switchboard/testkit/guilds';
import { useJobStores } from '@switchboard/testkit/jobs';
import { killMidOperation } from '@switchboard/testkit/operations';
import { storedObjects } from '@switchboard/testkit/storage';
import { testSnowflakeWorkerId } from '@switchboard/testkit/ids';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { useWorker } from '@switchboard/testkit/use-worker';

// The worker process as deployed (services/asset-purge-worker/src/main.ts), handed its jobs as
// the gateway hands them: an asset_purges row, then ASSET_PURGE_JOB carrying its id.
const environment = useTestEnvironment();
const stores = useJobStores(environment);
const worker = useWorker(environment, 'asset-purge-worker');
const ids = createSnowflakeGenerator(testSnowflakeWorkerId());

const seedGuild = () => createPurgeGuildFixture(stores.pool, stores.storage);
const stored = (keys: string[]) => storedObjects(stores.storage, keys);

/** Starts a purge of `request` as the gateway does; answers its row id. */
async function startPurge(adminId: string, request: unknown): Promise<string> {
  const id = ids.next();
  await stores.enqueueOperation(ASSET_PURGE_JOB, 'asset_purges', {
    id,
    requestedBy: adminId,
    request,
    auditLogReason: null,
  });
  return id;
}

describe('an asset purge job', () => {
  it('purges emoji and sticker ids with a per-item result, deleting their objects and auditing each item', async () => {
    const { adminId, guildId, emojiA, emojiB, stickerId } = await seedGuild();
    const unknown = ids.next();
    const row = await stores.finishedOperation(
      'asset_purges',
      await startPurge(adminId, { ids: [emojiA, stickerId, unknown, 'abc'] }),
    );
    expect(row).toMatchObject({ status: 'completed', error: null });
    expect(row.result).toEqual({
      processed: [
        { id: emojiA, asset_type: 'emoji', found_in_db: true, guild_id: guildId },
        { id: stickerId, asset_type: 'sticker', found_in_db: true, guild_id: guildId },
        { id: unknown, asset_type: 'unknown', found_in_db: false, guild_id: null },
      ],
      errors: [{ id: 'abc', error: 'Invalid numeric ID' }],
      // The emoji's, the sticker's, and both keys an unknown id could have had.
      deleted_objects: 4,
    });
    expect(
      await stored([storageKeys.emoji(emojiA), storageKeys.emoji(emojiB), storageKeys.sticker(stickerId)]),
    ).toEqual([false, true, false]);
    // One audit entry per item, as Fluxer writes them.
    const { rows } = await stores.pool.query(
      `SELECT target_type, target_id, action, metadata FROM audit_logs WHERE admin_user_id = $1 AND target_id = ANY($2) ORDER BY target_type`,
      [adminId, [emojiA, stickerId, unknown]],
    );
    expect(rows).toEqual([
      { target_type: 'asset', target_id: unknown, action: 'purge_asset', metadata: { asset_type: 'unknown' } },
      {
        target_type: 'guild_emoji',
        target_id: emojiA,
        action: 'purge_guild_emoji_asset',
        metadata: { asset_type: 'emoji', guild_id: guildId },
      },
      {
        target_type: 'guild_sticker',
        target_id: stickerId,
        action: 'purge_guild_sticker_asset',
        metadata: { asset_type: 'sticker', guild_id: guildId },
      },
    ]);
  });
});

describe('an asset purge delivered again or killed', () => {
  it('changes nothing when its job is delivered again after it completed', async () => {
    const { adminId, guildId, keys } = await seedGuild();
    const id = await startPurge(adminId, { guild_id: guildId });
    const first = await stores.finishedOperation('asset_purges', id);
    expect(first).toMatchObject({ status: 'completed', result: { deleted_objects: 5 } });

    const again = await stores.deliverAgain(ASSET_PURGE_JOB, { operationId: id });
    expect(again.state).toBe('completed');
    expect(await findOperation(stores.pool, 'asset_purges', id)).toEqual(first);
    expect(await stored(keys)).toEqual([false, false, false, false, false]);
    const audits = await stores.pool.query(`SELECT count(*)::int AS n FROM audit_logs WHERE target_id = $1`, [guildId]);
    expect(audits.rows[0]).toEqual({ n: 1 });
  });

  it('is taken over and completed when its worker is SIGKILLed mid-purge', async () => {
    const { adminId, guildId, emojiA, keys } = await seedGuild();
    const { accepted, done } = await killMidOperation({
      pool: stores.pool,
      // One emoji row held: the worker blocks inside its first phase, after marking the purge running.
      lock: { sql: 'SELECT 1 FROM emojis WHERE id = $1 FOR UPDATE', params: [emojiA] },
      start: () => startPurge(adminId, { guild_id: guildId }),
      status: stores.operationStatus('asset_purges'),
      ...worker,
    });
    expect(done.body).toMatchObject({
      id: accepted,
      status: 'completed',
      result: { errors: [], deleted_objects: 5 },
    });
    expect((done.body.result as { processed: unknown[] }).processed).toHaveLength(5);
    expect(await stored(keys)).toEqual([false, false, false, false, false]);
  });
});
