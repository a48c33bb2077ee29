import { type Queue, UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARCHIVE_EXPORT_JOB, ASSET_PURGE_JOB, BULK_ADD_GUILD_MEMBERS_JOB, QUEUES } from '@switchboard/contracts';
import { findArchive, insertAdminUser, insertArchive } from '@switchboard/db';
import { createLogger } from '@switchboard/logger';
import { bullQueue, createProducer, jobIdOf, type Producer } from '@switchboard/queue';
import { createSnowflakeGenerator } from '@switchboard/snowflake';
import { testSnowflakeWorkerId } from '@switchboard/testkit/ids';
import { useJobStores } from '@switchboard/testkit/jobs';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { useWorker } from '@switchboard/testkit/use-worker';
import { waitFor } from '@switchboard/testkit/wait';
import {
  findOperation,
  insertOperation,
  JOB_LOST,
  NEVER_QUEUED,
  queuedRowSweepHandler,
  rowJobStates,
  startOperation,
  type JobRowTable,
} from '../src/index.ts';

const environment = useTestEnvironment();
const stores = useJobStores(environment);
const ids = createSnowflakeGenerator(testSnowflakeWorkerId());
const logger = createLogger('row-sweep-test', 'silent');
// The real bulk worker, sweeping its rows every 200 ms once they are a second old.
useWorker(environment, 'bulk-worker', { QUEUED_ROW_ORPHAN_AGE_MS: '1000', QUEUED_ROW_SWEEP_INTERVAL_MS: '200' });
let adminId: string;
let purges: Queue;
// Jobs are added as the gateway adds them, so their ids are the ones the sweep must find.
let producer: Producer;

beforeAll(async () => {
  adminId = (await insertAdminUser(stores.pool, { id: ids.next(), name: 'sweep', acls: ['*'] })).id;
  purges = bullQueue(QUEUES.assetPurges, stores.redis, environment.redisPrefix);
  producer = createProducer({ connection: stores.redis, redisPrefix: environment.redisPrefix });
});
afterAll(async () => {
  await producer?.close();
  await purges?.close();
});

const CREATED_AT: Record<JobRowTable, string> = {
  archives: 'requested_at',
  asset_purges: 'created_at',
  bulk_operations: 'created_at',
};

/** Moves a row's creation `seconds` into the past, as if the gateway had inserted it then. */
async function age(table: JobRowTable, id: string, seconds: number): Promise<void> {
  await stores.pool.query(
    `UPDATE ${table} SET ${CREATED_AT[table]} = now() - make_interval(secs => $2) WHERE id = $1`,
    [id, seconds],
  );
}

async function purgeRow(): Promise<string> {
  const id = ids.next();
  await insertOperation(stores.pool, 'asset_purges', {
    id,
    requestedBy: adminId,
    request: { ids: ['1'] },
    auditLogReason: null,
  });
  return id;
}

const sweep = (table: JobRowTable) =>
  queuedRowSweepHandler({
    pool: stores.pool,
    table,
    rowJob: table === 'archives' ? ARCHIVE_EXPORT_JOB : ASSET_PURGE_JOB,
    jobOf: rowJobStates(purges),
    failedJobError: (reason) => `failed for good: ${reason}`,
    orphanAgeMs: 60_000,
    logger,
  });

describe('the sweep of rows queued without a job', () => {
  it('fails an old queued row whose job Redis does not hold, and leaves one with a job or a young one', async () => {
    const [orphan, withJob, young] = [await purgeRow(), await purgeRow(), await purgeRow()];
    await age('asset_purges', orphan, 120);
    await age('asset_purges', withJob, 120);
    // Delayed: no worker takes it during the test, and it is still a job Redis holds.
    await producer.enqueue(ASSET_PURGE_JOB, { operationId: withJob }, { delayMs: 60_000 });

    expect(await sweep('asset_purges')()).toEqual({ failed: 1 });
    const row = (id: string) => findOperation(stores.pool, 'asset_purges', id);
    expect(await row(orphan)).toMatchObject({ status: 'failed', error: NEVER_QUEUED });
    expect((await row(orphan))?.completedAt).toBeInstanceOf(Date);
    expect((await row(withJob))?.status).toBe('queued');
    expect((await row(young))?.status).toBe('queued');
    // A second run finds nothing more to do.
    expect(await sweep('asset_purges')()).toEqual({ failed: 0 });
  });

  it('fails a row running for long whose job Redis no longer holds, and not one whose job is active', async () => {
    const [lost, active] = [await purgeRow(), await purgeRow()];
    for (const id of [lost, active]) {
      await startOperation(stores.pool, 'asset_purges', id);
      await stores.pool.query(`UPDATE asset_purges SET started_at = now() - interval '2 minutes' WHERE id = $1`, [id]);
    }
    await producer.enqueue(ASSET_PURGE_JOB, { operationId: active }, { delayMs: 60_000 });
    expect(await sweep('asset_purges')()).toEqual({ failed: 1 });
    expect(await findOperation(stores.pool, 'asset_purges', lost)).toMatchObject({ status: 'failed', error: JOB_LOST });
    expect((await findOperation(stores.pool, 'asset_purges', active))?.status).toBe('running');
  });

  it('fails a row whose job failed for good before its final-failure handler could write it', async () => {
    const [row, retrying] = [await purgeRow(), await purgeRow()];
    for (const id of [row, retrying]) {
      await startOperation(stores.pool, 'asset_purges', id);
      await stores.pool.query(`UPDATE asset_purges SET started_at = now() - interval '2 minutes' WHERE id = $1`, [id]);
    }
    await producer.enqueue(ASSET_PURGE_JOB, { operationId: row });
    // Still to be retried: delayed, its row stays running.
    await producer.enqueue(ASSET_PURGE_JOB, { operationId: retrying }, { delayMs: 60_000 });
    // A worker of none of our code: the job fails for good and no handler touches the row, as
    // when the worker is killed, or the database is away, right after BullMQ failed the job.
    const connection = new Redis(environment.redisUrl, { maxRetriesPerRequest: null });
    const failing = new Worker(QUEUES.assetPurges, async () => Promise.reject(new UnrecoverableError('store gone')), {
      connection,
      prefix: purges.opts.prefix,
    });
    try {
      await waitFor(async () => (await purges.getJobState(jobIdOf(ASSET_PURGE_JOB, row))) === 'failed', 10_000);
    } finally {
      await failing.close();
      connection.disconnect();
    }
    expect((await findOperation(stores.pool, 'asset_purges', row))?.status).toBe('running');

    expect(await sweep('asset_purges')()).toEqual({ failed: 1 });
    expect(await findOperation(stores.pool, 'asset_purges', row)).toMatchObject({
      status: 'failed',
      error: 'failed for good: store gone',
    });
    expect((await findOperation(stores.pool, 'asset_purges', retrying))?.status).toBe('running');
  });

  it('fails an archive the same way, with its failure time', async () => {
    const archive = await insertArchive(stores.pool, {
      id: ids.next(),
      subjectType: 'guild',
      subjectId: ids.next(),
      requestedBy: adminId,
      retentionDays: 7,
    });
    await age('archives', archive.id, 120);
    expect(await sweep('archives')()).toEqual({ failed: 1 });
    expect(await findArchive(stores.pool, archive.id)).toMatchObject({ status: 'failed', error: NEVER_QUEUED });
    expect((await findArchive(stores.pool, archive.id))?.failedAt).toBeInstanceOf(Date);
  });

  it('runs in the worker on its schedule: a bulk add whose job was never added is failed by itself, one waiting is kept', async () => {
    const bulkRow = async () => {
      const id = ids.next();
      await insertOperation(stores.pool, 'bulk_operations', {
        id,
        requestedBy: adminId,
        request: { guild_id: ids.next(), user_ids: [] },
        auditLogReason: null,
        kind: 'add_guild_members',
      });
      return id;
    };
    const [orphan, backlogged] = [await bulkRow(), await bulkRow()];
    // Delayed past the test: a job still waiting behind a backlog, its row older than the orphan age.
    await producer.enqueue(BULK_ADD_GUILD_MEMBERS_JOB, { operationId: backlogged }, { delayMs: 60_000 });
    await waitFor(
      async () => (await findOperation(stores.pool, 'bulk_operations', orphan))?.status === 'failed',
      30_000,
    );
    expect(await findOperation(stores.pool, 'bulk_operations', orphan)).toMatchObject({ error: NEVER_QUEUED });
    // The orphan failed after more than the orphan age (1 s), so the sweep has looked at both rows.
    expect((await findOperation(stores.pool, 'bulk_operations', backlogged))?.status).toBe('queued');
  });
});
