import { beforeAll, describe, expect, it } from 'vitest';
import { ACL } from '@switchboard/contracts';
import { createGuildFixture } from '@switchboard/testkit/guilds';
import { holdRowLock } from '@switchboard/testkit/row-lock';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { adminCall, createAdmin, finishedOperationAnswer, fixtureIds, type AdminFixture } from './admin-helpers.ts';
import { useOperationGateways } from './operation-gateways.ts';

const environment = useTestEnvironment();
const { gateway, impatient } = useOperationGateways(environment, ['bulk-worker'], { BULK_MAX_USER_IDS: '50' });
let admin: AdminFixture;

beforeAll(async () => {
  admin = await createAdmin(gateway.pool, [ACL.authenticate, ACL.bulkAddGuildMembers]);
});

const seed = (users: number, maxMembers?: number) => createGuildFixture(gateway.pool, users, maxMembers);

const bulkAdd = (body: unknown, via = gateway, headers: Record<string, string> = {}) =>
  adminCall(via.url, { method: 'POST', path: '/v1/admin/bulk/add-guild-members', key: admin.key, body, headers });

// What a bulk add does to members (outcomes, limits, races, redelivery, a killed worker) is
// the bulk worker's, tested beside it (services/bulk-worker/test); here, what the route answers.
describe('POST /admin/bulk/add-guild-members', () => {
  it("answers 200 with the worker's result, and its audit entry names the admin and the X-Audit-Log-Reason", async () => {
    const { guildId, userIds } = await seed(1);
    const [user] = userIds as [string];
    const missing = fixtureIds.next();
    const answer = await bulkAdd({ guild_id: guildId, user_ids: [user, missing] }, gateway, {
      'X-Audit-Log-Reason': 'onboarding',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ successful: [user], failed: [{ id: missing, error: 'UNKNOWN_USER' }] });
    const audit = await gateway.pool.query(
      `SELECT admin_user_id::text, api_key_id::text, action, audit_log_reason FROM audit_logs WHERE target_id = $1`,
      [guildId],
    );
    expect(audit.rows).toEqual([
      {
        admin_user_id: admin.adminId,
        api_key_id: admin.keyId,
        action: 'bulk_add_guild_members',
        audit_log_reason: 'onboarding',
      },
    ]);
  });

  it('refuses bodies outside the limits with 400, before anything is queued', async () => {
    const { guildId, userIds } = await seed(1);
    const tooMany = Array.from({ length: 51 }, () => fixtureIds.next());
    for (const body of [
      { guild_id: guildId, user_ids: tooMany },
      { guild_id: 'x', user_ids: userIds },
      { guild_id: guildId, user_ids: ['nope'] },
      { user_ids: userIds },
    ]) {
      const answer = await bulkAdd(body);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(answer.body.code).toBe('INVALID_FORM_BODY');
    }
    expect(
      (
        await gateway.pool.query("SELECT count(*)::int AS n FROM bulk_operations WHERE request->>'guild_id' = $1", [
          guildId,
        ])
      ).rows[0],
    ).toEqual({ n: 0 });
  });
});

describe('a bulk add that outlives the request', () => {
  it('answers 202 with its id, and the status route reports the outcome once the worker finished', async () => {
    const { guildId, userIds } = await seed(3);
    // Members cannot be added while the guild's row is locked: the worker cannot finish before
    // the answer, however fast it is.
    const guild = await holdRowLock(gateway.pool, 'SELECT 1 FROM guilds WHERE id = $1 FOR UPDATE', [guildId]);
    const accepted = await bulkAdd({ guild_id: guildId, user_ids: userIds }, impatient).finally(() => guild.release());
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({
      operation_id: expect.stringMatching(/^\d+$/),
      status: expect.stringMatching(/^(queued|running)$/),
    });
    const statusPath = `/v1/admin/bulk/operations/${accepted.body.operation_id}`;
    const done = await finishedOperationAnswer(gateway.url, statusPath, admin.key);
    expect(done.status).toBe(200);
    expect(done.body).toEqual({
      operation_id: accepted.body.operation_id,
      status: 'completed',
      successful: userIds,
      failed: [],
    });
  });

  it('answers 404 UNKNOWN_BULK_OPERATION for an id that is no operation', async () => {
    for (const id of ['123456789012345678', 'abc']) {
      const answer = await adminCall(gateway.url, {
        method: 'GET',
        path: `/v1/admin/bulk/operations/${id}`,
        key: admin.key,
      });
      expect(answer.status).toBe(404);
      expect(answer.body.code).toBe('UNKNOWN_BULK_OPERATION');
    }
  });
});
