import { UnrecoverableError } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ASSET_PURGE_JOB, QUEUES } from '@switchboard/contracts';
import { insertAdminUser } from '@switchboard/db';
import { ApiError } from '@switchboard/http';
import { createLogger } from '@switchboard/logger';
import { createProducer, startWorker, type RunningWorker } from '@switchboard/queue';
import { closeRedis, createRedis } from '@switchboard/redis';
import { createSnowflakeGenerator } from '@switchboard/snowflake';
import { testSnowflakeWorkerId } from '@switchboard/testkit/ids';
import { useJobStores } from '@switchboard/testkit/jobs';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { waitFor } from '@switchboard/testkit/wait';
import {
  acceptOperation,
  completeOperation,
  findOperation,
  operationJob,
  presentOperation,
  type Operation,
} from '../src/index.ts';

const environment = useTestEnvironment();
const stores = useJobStores(environment);
const ids = createSnowflakeGenerator(testSnowflakeWorkerId());
const logger = createLogger('accept-test', 'silent');
const TABLE = 'asset_purges';
const PUBLIC_ERROR = 'The asset purge failed; request it again.';
let adminId: string;
let worker: RunningWorker;
/** What the worker does with the next operation it runs. */
let work: (operation: Operation) => Promise<unknown>;

beforeAll(async () => {
  adminId = (await insertAdminUser(stores.pool, { id: ids.next(), name: 'accept', acls: ['*'] })).id;
  const job = operationJob(stores.pool, TABLE, PUBLIC_ERROR, (operation) => work(operation));
  worker = await startWorker({
    queue: QUEUES.assetPurges,
    contracts: [ASSET_PURGE_JOB],
    handlers: { [ASSET_PURGE_JOB.name]: job.handler },
    onFinalFailure: { [ASSET_PURGE_JOB.name]: job.onFinalFailure },
    connection: environment.redisUrl,
    redisPrefix: environment.redisPrefix,
    logger,
  });
});
afterAll(() => worker?.close(1_000));

function accept(waitMs: number, producer = stores.producer) {
  return acceptOperation(
    { pool: stores.pool, producer, ids, waitMs },
    { table: TABLE, contract: ASSET_PURGE_JOB, requestedBy: adminId, request: { ids: ['1'] }, auditLogReason: null },
  );
}

describe('an operation accepted by the gateway and run by its worker', () => {
  it('answers the outcome the worker stored in the row, when it finishes within the wait', async () => {
    work = async (operation) => completeOperation(stores.pool, TABLE, operation.id, { processed: [], errors: [] });
    expect(await accept(10_000)).toEqual({ state: 'done', result: { processed: [], errors: [] } });
  });

  it('answers the row as it stands when the wait ends first; the worker finishes it after', async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    work = async (operation) => {
      await released;
      return completeOperation(stores.pool, TABLE, operation.id, { done: 'later' });
    };
    const outcome = await accept(300);
    if (outcome.state !== 'pending') throw new Error(`expected pending, got ${outcome.state}`);
    expect(['queued', 'running']).toContain(outcome.operation.status);
    expect(presentOperation('purge_id', outcome.operation)).toEqual({
      purge_id: outcome.operation.id,
      status: outcome.operation.status,
    });
    release();
    const finished = await waitFor(async () => {
      const row = await findOperation(stores.pool, TABLE, outcome.operation.id);
      return row?.status === 'completed' && row;
    }, 10_000);
    expect(presentOperation('purge_id', finished)).toEqual({
      purge_id: finished.id,
      status: 'completed',
      done: 'later',
    });
  });

  it('is a 503 with the public reason when the work fails for good, and the row says failed', async () => {
    work = async () => {
      throw new UnrecoverableError('bucket refused: internal detail');
    };
    const refused = await accept(10_000).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    // The worker's reason or the gateway's, whichever marked the row first; never the internal one.
    const { message } = refused as ApiError;
    expect([PUBLIC_ERROR, 'The operation failed; request it again.']).toContain(message);
    const { rows } = await stores.pool.query<{ status: string; error: string }>(
      `SELECT status, error FROM ${TABLE} WHERE requested_by = $1 AND error NOT LIKE '%could not be queued%'
       AND status <> 'completed'`,
      [adminId],
    );
    // Failed by the time of the answer, with the reason answered.
    expect(rows).toEqual([{ status: 'failed', error: message }]);
  });

  it('is a 503 with Retry-After and a failed row when the job cannot be queued', async () => {
    // A port nothing listens on: Redis is away.
    const away = createRedis('redis://127.0.0.1:1', { role: 'producer', commandTimeoutMs: 500 });
    const producer = createProducer({ connection: away, redisPrefix: environment.redisPrefix });
    try {
      const refused = await accept(1_000, producer).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ApiError);
      expect(refused).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect((refused as ApiError).headers).toMatchObject({ 'Retry-After': '1' });
      const { rows } = await stores.pool.query<{ error: string }>(
        `SELECT error FROM ${TABLE} WHERE requested_by = $1 AND status = 'failed' AND error LIKE '%could not be queued%'`,
        [adminId],
      );
      expect(rows).toHaveLength(1);
    } finally {
      await producer.close();
      await closeRedis(away);
    }
  });
});
