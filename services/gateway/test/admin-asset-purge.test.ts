import { beforeAll, describe, expect, it } from 'vitest';
import { ACL, LIMITS } from '@switchboard/contracts';
import { createPurgeGuildFixture } from '@switchboard/testkit/guilds';
import { holdRowLock } from '@switchboard/testkit/row-lock';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { adminCall, createAdmin, finishedOperationAnswer, fixtureIds, type AdminFixture } from './admin-helpers.ts';
import { useOperationGateways } from './operation-gateways.ts';

const environment = useTestEnvironment();
const { gateway, impatient } = useOperationGateways(environment, ['asset-purge-worker']);
let admin: AdminFixture;

beforeAll(async () => {
  admin = await createAdmin(gateway.pool, [ACL.authenticate, ACL.assetPurge]);
});

const seed = () => createPurgeGuildFixture(gateway.pool, gateway.storage);

const purge = (body: unknown, via = gateway) =>
  adminCall(via.url, { method: 'POST', path: '/v1/admin/assets/purge', key: admin.key, body });

// What a purge deletes in the bucket and the database, and its audit entries, is the purge
// worker's, tested beside it (services/asset-purge-worker/test); here, what the routes answer.
describe('POST /admin/assets/purge', () => {
  it("answers 200 with the worker's per-item result, as stored on its row (Fluxer shape)", async () => {
    const { emojiA, stickerId } = await seed();
    const unknown = fixtureIds.next();
    const answer = await purge({ ids: [emojiA, stickerId, unknown, 'abc'] });
    expect(answer.status).toBe(200);
    const { rows } = await gateway.pool.query(
      'SELECT result FROM asset_purges WHERE requested_by = $1 ORDER BY id DESC LIMIT 1',
      [admin.adminId],
    );
    expect(answer.body).toEqual(rows[0].result);
    expect(Object.keys(answer.body).sort()).toEqual(['deleted_objects', 'errors', 'processed']);
    expect(answer.body.processed.map((item: { id: string }) => item.id)).toEqual([emojiA, stickerId, unknown]);
    expect(answer.body.errors).toEqual([{ id: 'abc', error: 'Invalid numeric ID' }]);
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
  it('answers 202 with its id, and the status route reports the same body once the worker finished', async () => {
    const { guildId } = await seed();
    // The purge clears the guild's icon: it cannot finish before the answer while the row is locked.
    const guild = await holdRowLock(gateway.pool, 'SELECT 1 FROM guilds WHERE id = $1 FOR UPDATE', [guildId]);
    const accepted = await purge({ guild_id: guildId }, impatient).finally(() => guild.release());
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({
      purge_id: expect.stringMatching(/^\d+$/),
      status: expect.stringMatching(/^(queued|running)$/),
    });
    const statusPath = `/v1/admin/assets/purges/${accepted.body.purge_id}`;
    const done = await finishedOperationAnswer(gateway.url, statusPath, admin.key);
    expect(done.status).toBe(200);
    expect(done.body).toMatchObject({
      purge_id: accepted.body.purge_id,
      status: 'completed',
      errors: [],
      deleted_objects: 5,
    });
    // The guild's icon, two emojis, sticker and webhook avatar.
    expect(done.body.processed).toHaveLength(5);
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
