import { beforeAll, describe, expect, it } from 'vitest';
import { insertAdminUser } from '@switchboard/db';
import { createSnowflakeGenerator } from '@switchboard/snowflake';
import { testSnowflakeWorkerId } from '@switchboard/testkit/ids';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { useTestPool } from '@switchboard/testkit/pool';
import {
  completeOperation,
  failOperation,
  findOperation,
  insertOperation,
  startOperation,
  type OperationTable,
} from '../src/index.ts';

const environment = useTestEnvironment();
const pool = useTestPool(environment, 2);
const ids = createSnowflakeGenerator(testSnowflakeWorkerId());
let adminId: string;

beforeAll(async () => {
  adminId = (await insertAdminUser(pool(), { id: ids.next(), name: 'rows', acls: ['*'] })).id;
});

async function queued(table: OperationTable): Promise<string> {
  const id = ids.next();
  await insertOperation(pool(), table, { id, requestedBy: adminId, request: { ids: ['1'] }, auditLogReason: 'why' });
  return id;
}

describe.each(['asset_purges', 'bulk_operations'] as const)('a %s row', (table) => {
  it('goes queued → running → completed, keeping its first start through a retry', async () => {
    const id = await queued(table);
    expect(await findOperation(pool(), table, id)).toMatchObject({
      id,
      requestedBy: adminId,
      status: 'queued',
      auditLogReason: 'why',
      startedAt: null,
    });
    const started = await startOperation(pool(), table, id);
    expect(started).toMatchObject({ status: 'running', request: { ids: ['1'] } });
    const retried = await startOperation(pool(), table, id);
    expect(retried?.startedAt).toEqual(started?.startedAt);
    expect(await completeOperation(pool(), table, id, { processed: 1 })).toBe(true);
    const done = await findOperation(pool(), table, id);
    expect(done).toMatchObject({ status: 'completed', result: { processed: 1 }, error: null });
    expect(done?.completedAt).toBeInstanceOf(Date);
  });

  it('never moves back once finished: a late start, completion or failure changes nothing', async () => {
    const completed = await queued(table);
    await completeOperation(pool(), table, completed, { first: true });
    expect(await startOperation(pool(), table, completed)).toBeNull();
    expect(await completeOperation(pool(), table, completed, { first: false })).toBe(false);
    expect(await failOperation(pool(), table, completed, 'late')).toBe(false);
    expect(await findOperation(pool(), table, completed)).toMatchObject({
      status: 'completed',
      result: { first: true },
    });

    const failed = await queued(table);
    expect(await failOperation(pool(), table, failed, 'x'.repeat(5_000))).toBe(true);
    expect(await startOperation(pool(), table, failed)).toBeNull();
    expect(await completeOperation(pool(), table, failed, {})).toBe(false);
    const row = await findOperation(pool(), table, failed);
    expect(row?.status).toBe('failed');
    // The reason is for a client to read: bounded.
    expect(row?.error).toHaveLength(2_000);
  });

  it('is not found by an id that names none', async () => {
    expect(await findOperation(pool(), table, ids.next())).toBeNull();
    expect(await startOperation(pool(), table, ids.next())).toBeNull();
  });
});
