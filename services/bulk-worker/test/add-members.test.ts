import { beforeAll, describe, expect, it } from 'vitest';
import { findOperation } from '@switchboard/admin-operations';
import { BULK_ADD_GUILD_MEMBERS_JOB } from '@switchboard/contracts';
import { insertAdminUser, insertMembers } from '@switchboard/db';
import { createSnowflakeGenerator } from '@switchboard/snowflake';
import { createGuildFixture } from '@switchboard/testkit/guilds';
import { useJobStores } from '@switchboard/testkit/jobs';
import { killMidOperation } from '@switchboard/testkit/operations';
import { testSnowflakeWorkerId } from '@switchboard/testkit/ids';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { useWorker } from '@switchboard/testkit/use-worker';

// The worker process as deployed (services/bulk-worker/src/main.ts), handed its jobs as the
// gateway hands them: a bulk_operations row, then the contract's job carrying its id.
const environment = useTestEnvironment();
const stores = useJobStores(environment);
/** A user may be in 3 guilds: the fourth add of the same user fails with MAX_GUILDS. */
const worker = useWorker(environment, 'bulk-worker', { BULK_MAX_GUILDS_PER_USER: '3' });
const ids = createSnowflakeGenerator(testSnowflakeWorkerId());
let adminId: string;

beforeAll(async () => {
  adminId = (await insertAdminUser(stores.pool, { id: ids.next(), name: `bulk-${ids.next()}`, acls: ['*'] })).id;
});

const seed = (users: number, maxMembers?: number) => createGuildFixture(stores.pool, users, maxMembers);

/** Starts a bulk add of `userIds` to the guild as the gateway does; answers its row id. */
async function startBulkAdd(guildId: string, userIds: string[], auditLogReason: string | null = null) {
  const id = ids.next();
  await stores.enqueueOperation(BULK_ADD_GUILD_MEMBERS_JOB, 'bulk_operations', {
    id,
    requestedBy: adminId,
    request: { guild_id: guildId, user_ids: userIds },
    auditLogReason,
  });
  return id;
}

/** A bulk add run to its end: its finished row. */
async function bulkAdd(guildId: string, userIds: string[], auditLogReason: string | null = null) {
  return stores.finishedOperation('bulk_operations', await startBulkAdd(guildId, userIds, auditLogReason));
}

async function memberCount(guildId: string) {
  const { rows } = await stores.pool.query(
    'SELECT member_count, (SELECT count(*)::int FROM members WHERE guild_id = $1) AS counted FROM guilds WHERE id = $1',
    [guildId],
  );
  return rows[0];
}

const auditEntries = async (guildId: string) =>
  (
    await stores.pool.query(
      `SELECT admin_user_id::text, action, metadata, audit_log_reason FROM audit_logs WHERE target_id = $1 ORDER BY id`,
      [guildId],
    )
  ).rows;

describe('a bulk add job', () => {
  it('adds users and reports each once, in request order; existing members count as successful; one audit entry', async () => {
    const { guildId, userIds } = await seed(3);
    const [a, b, member] = userIds as [string, string, string];
    await insertMembers(stores.pool, guildId, [{ userId: member }]);
    const missing = ids.next();
    const row = await bulkAdd(guildId, [a, missing, b, a, member], 'onboarding');
    expect(row).toMatchObject({ status: 'completed', error: null });
    expect(row.result).toEqual({ successful: [a, b, member], failed: [{ id: missing, error: 'UNKNOWN_USER' }] });
    expect(await memberCount(guildId)).toEqual({ member_count: 4, counted: 4 });
    expect(await auditEntries(guildId)).toEqual([
      {
        admin_user_id: adminId,
        action: 'bulk_add_guild_members',
        metadata: { user_count: '5', successful_count: '3', failed_count: '1' },
        audit_log_reason: 'onboarding',
      },
    ]);
  });

  it('fails every user with UNKNOWN_GUILD when the guild does not exist, and a user past their guild cap with MAX_GUILDS', async () => {
    const { userIds } = await seed(2);
    const unknownGuild = await bulkAdd(ids.next(), userIds);
    expect(unknownGuild.result).toEqual({
      successful: [],
      failed: userIds.map((id) => ({ id, error: 'UNKNOWN_GUILD' })),
    });

    // The worker's cap is 3 guilds a user: the third add still fits, the fourth does not.
    const user = userIds[0]!;
    const guilds = await Promise.all([seed(0), seed(0), seed(0), seed(0)]);
    const outcomes = [];
    for (const { guildId } of guilds) outcomes.push((await bulkAdd(guildId, [user])).result);
    expect(outcomes).toEqual([
      { successful: [user], failed: [] },
      { successful: [user], failed: [] },
      { successful: [user], failed: [] },
      { successful: [], failed: [{ id: user, error: 'MAX_GUILDS' }] },
    ]);
  });

  it('fills the free member slots in request order and fails the rest with MAX_GUILD_MEMBERS, counted in the audit entry', async () => {
    // Room for three members: the owner and two more.
    const { guildId, userIds } = await seed(4, 3);
    const row = await bulkAdd(guildId, userIds);
    expect(row.result).toEqual({
      successful: userIds.slice(0, 2),
      failed: userIds.slice(2).map((id) => ({ id, error: 'MAX_GUILD_MEMBERS' })),
    });
    expect(await memberCount(guildId)).toEqual({ member_count: 3, counted: 3 });
    expect((await auditEntries(guildId)).map((entry) => entry.metadata)).toEqual([
      { user_count: '4', successful_count: '2', failed_count: '2' },
    ]);
  });

  it('never takes a guild over its member limit when two bulk adds race for the last slots', async () => {
    const { guildId, userIds } = await seed(20, 11);
    const rows = await Promise.all([bulkAdd(guildId, userIds.slice(0, 10)), bulkAdd(guildId, userIds.slice(10))]);
    const results = rows.map((row) => row.result as { successful: string[]; failed: Array<{ error: string }> });
    const successful = results.flatMap((result) => result.successful);
    const failed = results.flatMap((result) => result.failed);
    expect(successful).toHaveLength(10);
    expect(failed).toHaveLength(10);
    expect(new Set(failed.map((entry) => entry.error))).toEqual(new Set(['MAX_GUILD_MEMBERS']));
    expect(await memberCount(guildId)).toEqual({ member_count: 11, counted: 11 });
  });
});

describe('a bulk add delivered again or killed', () => {
  it('changes nothing when its job is delivered again after it completed', async () => {
    const { guildId, userIds } = await seed(3);
    const id = await startBulkAdd(guildId, userIds);
    const first = await stores.finishedOperation('bulk_operations', id);
    expect(first.result).toEqual({ successful: userIds, failed: [] });

    const again = await stores.deliverAgain(BULK_ADD_GUILD_MEMBERS_JOB, { operationId: id });
    expect(again.state).toBe('completed');
    expect(await findOperation(stores.pool, 'bulk_operations', id)).toEqual(first);
    expect(await memberCount(guildId)).toEqual({ member_count: 4, counted: 4 });
    expect(await auditEntries(guildId)).toHaveLength(1);
  });

  it('is taken over and completed once when its worker is SIGKILLed mid-operation', async () => {
    const { guildId, userIds } = await seed(3);
    const { accepted, done } = await killMidOperation({
      pool: stores.pool,
      // The guild row held: the worker blocks inside its transaction, after marking the row running.
      lock: { sql: 'SELECT 1 FROM guilds WHERE id = $1 FOR UPDATE', params: [guildId] },
      start: () => startBulkAdd(guildId, userIds),
      status: stores.operationStatus('bulk_operations'),
      ...worker,
    });
    expect(done.body).toMatchObject({ id: accepted, status: 'completed', error: null });
    expect(done.body.result).toEqual({ successful: userIds, failed: [] });
    expect(await memberCount(guildId)).toEqual({ member_count: 4, counted: 4 });
    expect(await auditEntries(guildId)).toHaveLength(1);
  });
});
