import { beforeAll, describe, expect, it } from 'vitest';
import { ACL, LIMITS, storageKeys } from '@switchboard/contracts';
import { insertEmojis, insertGuild, insertStickers, insertUsers, withTransaction } from '@switchboard/db';
import { killMidOperation, useTestEnvironment, useWorker } from '@switchboard/testkit';
import { adminCall, createAdmin, fixtureIds, type AdminFixture } from './admin-helpers.ts';
import { useGateway } from './helpers.ts';

const environment = useTestEnvironment();
const gateway = useGateway(environment, { RATE_LIMITS_ENABLED: 'false' });
/** Answers 202 at once: the purge outlives the request. */
const impatient = useGateway(environment, { RATE_LIMITS_ENABLED: 'false', ADMIN_JOB_WAIT_MS: '0' });
const worker = useWorker(environment, 'asset-purge-worker');
let admin: AdminFixture;

beforeAll(async () => {
  admin = await createAdmin(gateway.pool, [ACL.authenticate, ACL.assetPurge]);
});

const PNG = { contentType: 'image/png', size: 4 };

/** A guild with two emojis and a sticker, rows and objects. */
async function seed() {
  const [ownerId, guildId, emojiA, emojiB, stickerId] = Array.from({ length: 5 }, () => fixtureIds.next()) as [
    string,
    string,
    string,
    string,
    string,
  ];
  await withTransaction(gateway.pool, async (db) => {
    await insertUsers(db, [{ id: ownerId, username: `o${ownerId.slice(-8)}` }]);
    await insertGuild(db, { id: guildId, name: 'purge', ownerId });
    await insertEmojis(
      db,
      [emojiA, emojiB].map((id, i) => ({
        id,
        guildId,
        name: `emoji_${i}`,
        creatorId: ownerId,
        storageKey: storageKeys.emoji(id),
        ...PNG,
      })),
    );
    await insertStickers(db, [
      {
        id: stickerId,
        guildId,
        name: 'sticker',
        creatorId: ownerId,
        storageKey: storageKeys.sticker(stickerId),
        ...PNG,
      },
    ]);
  });
  const keys = [storageKeys.emoji(emojiA), storageKeys.emoji(emojiB), storageKeys.sticker(stickerId)];
  for (const key of keys) await gateway.storage.upload(key, Buffer.from('png!'), { contentType: 'image/png' });
  return { guildId, emojiA, emojiB, stickerId, keys };
}

const purge = (body: unknown, via = gateway) =>
  adminCall(via.url, { method: 'POST', path: '/v1/admin/assets/purge', key: admin.key, body });
const stored = async (keys: string[]) =>
  (await Promise.all(keys.map((key) => gateway.storage.headObject(key)))).map((head) => head !== null);

describe('POST /admin/assets/purge', () => {
  it('purges emoji and sticker ids with a per-item result (Fluxer shape)', async () => {
    const { guildId, emojiA, stickerId, keys } = await seed();
    const unknown = fixtureIds.next();
    const answer = await purge({ ids: [emojiA, stickerId, unknown, 'abc'] });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      processed: [
        { id: emojiA, asset_type: 'emoji', found_in_db: true, guild_id: guildId },
        { id: stickerId, asset_type: 'sticker', found_in_db: true, guild_id: guildId },
        { id: unknown, asset_type: 'unknown', found_in_db: false, guild_id: null },
      ],
      errors: [{ id: 'abc', error: 'Invalid numeric ID' }],
      deleted_objects: 4,
    });
    expect(await stored(keys)).toEqual([false, true, false]);
    // One audit entry per item, as Fluxer writes them.
    const { rows } = await gateway.pool.query(
      `SELECT target_type, target_id, action, metadata FROM audit_logs WHERE admin_user_id = $1 AND target_id = ANY($2) ORDER BY target_type`,
      [admin.adminId, [emojiA, stickerId, unknown]],
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

  it('purges every asset of a guild; a second purge finds nothing and says so', async () => {
    const { guildId, keys } = await seed();
    const first = await purge({ guild_id: guildId });
    expect(first.status).toBe(200);
    expect(first.body.processed).toHaveLength(3);
    expect(first.body.deleted_objects).toBe(3);
    expect(await stored(keys)).toEqual([false, false, false]);
    const second = await purge({ guild_id: guildId });
    expect(second.body).toEqual({ processed: [], errors: [], deleted_objects: 0 });
  });

  it('refuses unknown guilds with 404 and bodies outside the limits with 400', async () => {
    const unknownGuild = await purge({ guild_id: fixtureIds.next() });
    expect(unknownGuild.status).toBe(404);
    expect(unknownGuild.body.code).toBe('UNKNOWN_GUILD');
    const tooMany = Array.from({ length: LIMITS.assetPurge.maxIds + 1 }, () => fixtureIds.next());
    const longId = 'x'.repeat(65);
    for (const body of [
      { ids: tooMany },
      { ids: [] },
      { ids: [longId] },
      { ids: ['  '] },
      {},
      { ids: ['1'], guild_id: '1' },
      { guild_id: 'nope' },
    ]) {
      const answer = await purge(body);
      expect(answer.status, JSON.stringify(body).slice(0, 60)).toBe(400);
      expect(answer.body.code).toBe('INVALID_FORM_BODY');
    }
  });
});

describe('a purge that outlives the request', () => {
  it('answers 202 with its id, and the status route reports the same body, even after its worker was SIGKILLed mid-purge', async () => {
    const { guildId, emojiA, keys } = await seed();
    const { accepted, done } = await killMidOperation({
      pool: gateway.pool,
      // One emoji row held: the worker blocks inside its first phase, after marking the purge running.
      lock: { sql: 'SELECT 1 FROM emojis WHERE id = $1 FOR UPDATE', params: [emojiA] },
      start: () => purge({ guild_id: guildId }, impatient),
      status: (first) =>
        adminCall(gateway.url, {
          method: 'GET',
          path: `/v1/admin/assets/purges/${first.body.purge_id}`,
          key: admin.key,
        }),
      ...worker,
    });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({
      purge_id: expect.stringMatching(/^\d+$/),
      status: expect.stringMatching(/^(queued|running)$/),
    });
    expect(done.body).toMatchObject({
      purge_id: accepted.body.purge_id,
      status: 'completed',
      errors: [],
      deleted_objects: 3,
    });
    expect(done.body.processed).toHaveLength(3);
    expect(await stored(keys)).toEqual([false, false, false]);
  });

  it('answers 404 UNKNOWN_ASSET_PURGE for an id that is no purge', async () => {
    const answer = await adminCall(gateway.url, {
      method: 'GET',
      path: '/v1/admin/assets/purges/123456789012345678',
      key: admin.key,
    });
    expect(answer.status).toBe(404);
    expect(answer.body.code).toBe('UNKNOWN_ASSET_PURGE');
  });
});
