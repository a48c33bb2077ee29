import { beforeAll, describe, expect, it } from 'vitest';
import { ACL } from '@switchboard/contracts';
import { insertMembers } from '@switchboard/db';
import { createGuildFixture, killMidOperation, useTestEnvironment, useWorker } from '@switchboard/testkit';
import { adminCall, createAdmin, fixtureIds, type AdminFixture } from './admin-helpers.ts';
import { useGateway } from './helpers.ts';

const environment = useTestEnvironment();
const gateway = useGateway(environment, { RATE_LIMITS_ENABLED: 'false', BULK_MAX_USER_IDS: '50' });
/** Answers 202 at once: the operation outlives the request. */
const impatient = useGateway(environment, { RATE_LIMITS_ENABLED: 'false', ADMIN_JOB_WAIT_MS: '0' });
const worker = useWorker(environment, 'bulk-worker', { BULK_MAX_GUILDS_PER_USER: '3' });
let admin: AdminFixture;

beforeAll(async () => {
  admin = await createAdmin(gateway.pool, [ACL.authenticate, ACL.bulkAddGuildMembers]);
});

const seed = (users: number, maxMembers?: number) => createGuildFixture(gateway.pool, users, maxMembers);

const bulkAdd = (body: unknown, via = gateway, headers: Record<string, string> = {}) =>
  adminCall(via.url, { method: 'POST', path: '/v1/admin/bulk/add-guild-members', key: admin.key, body, headers });

describe('POST /admin/bulk/add-guild-members', () => {
  it('adds users and reports each once, in request order; existing members count as successful; one audit entry', async () => {
    const { guildId, userIds } = await seed(3);
    const [a, b, member] = userIds as [string, string, string];
    await insertMembers(gateway.pool, guildId, [{ userId: member }]);
    const missing = fixtureIds.next();
    const answer = await bulkAdd({ guild_id: guildId, user_ids: [a, missing, b, a, member] }, gateway, {
      'X-Audit-Log-Reason': 'onboarding',
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ successful: [a, b, member], failed: [{ id: missing, error: 'UNKNOWN_USER' }] });
    const members = await gateway.pool.query('SELECT member_count FROM guilds WHERE id = $1', [guildId]);
    expect(members.rows[0]).toEqual({ member_count: 4 });
    const audit = await gateway.pool.query(
      `SELECT admin_user_id::text, action, metadata, audit_log_reason FROM audit_logs WHERE target_id = $1`,
      [guildId],
    );
    expect(audit.rows).toEqual([
      {
        admin_user_id: admin.adminId,
        action: 'bulk_add_guild_members',
        metadata: { user_count: '5', successful_count: '3', failed_count: '1' },
        audit_log_reason: 'onboarding',
      },
    ]);
  });

  it('fails every user with UNKNOWN_GUILD when the guild does not exist, and a user past their guild cap with MAX_GUILDS', async () => {
    const { userIds } = await seed(2);
    const unknownGuild = await bulkAdd({ guild_id: fixtureIds.next(), user_ids: userIds });
    expect(unknownGuild.body).toEqual({
      successful: [],
      failed: userIds.map((id) => ({ id, error: 'UNKNOWN_GUILD' })),
    });

    // The worker's cap is 3 guilds a user: the third add still fits, the fourth does not.
    const user = userIds[0]!;
    const guilds = await Promise.all([seed(0), seed(0), seed(0), seed(0)]);
    const outcomes = [];
    for (const { guildId } of guilds) outcomes.push((await bulkAdd({ guild_id: guildId, user_ids: [user] })).body);
    expect(outcomes).toEqual([
      { successful: [user], failed: [] },
      { successful: [user], failed: [] },
      { successful: [user], failed: [] },
      { successful: [], failed: [{ id: user, error: 'MAX_GUILDS' }] },
    ]);
  });

  it('never takes a guild over its member limit when two bulk adds race for the last slots', async () => {
    const { guildId, userIds } = await seed(20, 11);
    const answers = await Promise.all([
      bulkAdd({ guild_id: guildId, user_ids: userIds.slice(0, 10) }),
      bulkAdd({ guild_id: guildId, user_ids: userIds.slice(10) }),
    ]);
    const successful = answers.flatMap((answer) => answer.body.successful);
    const failed = answers.flatMap((answer) => answer.body.failed);
    expect(successful).toHaveLength(10);
    expect(failed).toHaveLength(10);
    expect(new Set(failed.map((entry: { error: string }) => entry.error))).toEqual(new Set(['MAX_GUILD_MEMBERS']));
    const { rows } = await gateway.pool.query(
      'SELECT member_count, (SELECT count(*)::int FROM members WHERE guild_id = $1) AS counted FROM guilds WHERE id = $1',
      [guildId],
    );
    expect(rows[0]).toEqual({ member_count: 11, counted: 11 });
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
  it('answers 202 with its id, and the status route reports the outcome, even after its worker was SIGKILLed mid-operation', async () => {
    const { guildId, userIds } = await seed(3);
    const { accepted, done } = await killMidOperation({
      pool: gateway.pool,
      // The guild row held: the worker blocks inside its transaction, after marking the row running.
      lock: { sql: 'SELECT 1 FROM guilds WHERE id = $1 FOR UPDATE', params: [guildId] },
      start: () => bulkAdd({ guild_id: guildId, user_ids: userIds }, impatient),
      status: (first) =>
        adminCall(gateway.url, {
          method: 'GET',
          path: `/v1/admin/bulk/operations/${first.body.operation_id}`,
          key: admin.key,
        }),
      ...worker,
    });
    expect(accepted.status).toBe(202);
    expect(accepted.body).toEqual({
      operation_id: expect.stringMatching(/^\d+$/),
      status: expect.stringMatching(/^(queued|running)$/),
    });
    expect(done.body).toEqual({
      operation_id: accepted.body.operation_id,
      status: 'completed',
      successful: userIds,
      failed: [],
    });
    const audit = await gateway.pool.query(`SELECT count(*)::int AS n FROM audit_logs WHERE target_id = $1`, [guildId]);
    expect(audit.rows[0]).toEqual({ n: 1 });
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
