import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import {
  findOperation,
  insertOperation,
  type NewOperation,
  type OperationState,
  type OperationTable,
} from '@switchboard/admin-operations';
import type { JobContract, OperationJobContract } from '@switchboard/contracts';
import { createPool, type Pool } from '@switchboard/db';
import { createProducer, type Producer, type WaitOutcome } from '@switchboard/queue';
import { closeRedis, createRedis, type RedisClient } from '@switchboard/redis';
import type { Storage } from '@switchboard/storage';
import type { TestEnvironment } from './environment.ts';
import { storageFor } from './storage.ts';
import { waitFor } from './wait.ts';

/** What a worker's tests use to hand it jobs and check what it did, on the file's stores. */
export interface JobStores {
  pool: Pool;
  /** A producer client, as the gateway's. */
  redis: RedisClient;
  /** The gateway's producer: payloads parsed by their contract, job ids derived from them. */
  producer: Producer;
  storage: Storage;
}

/**
 * Call at the top of a test file, after useTestEnvironment(): the stores are opened before the
 * file's first test and closed after its last; the object is filled in before the first test.
 */
export function useJobStores(environment: TestEnvironment, { poolMax = 4 }: { poolMax?: number } = {}): JobStores {
  const stores = {} as JobStores;
  beforeAll(() => {
    const redis = createRedis(environment.redisUrl, { role: 'producer' });
    Object.assign(stores, {
      pool: createPool({ connectionString: environment.databaseUrl, max: poolMax }),
      redis,
      producer: createProducer({ connection: redis, redisPrefix: environment.redisPrefix }),
      storage: storageFor(environment),
    });
  });
  afterAll(async () => {
    // The producer first: it uses `redis`.
    await stores.producer?.close();
    if (stores.redis) await closeRedis(stores.redis);
    await stores.pool?.end();
    stores.storage?.close();
  });
  return stores;
}

/**
 * An admin operation started as the gateway starts one (docs/decisions.md#jobs-and-their-rows):
 * its row inserted, queued, then its job enqueued with the row id as payload.
 */
export async function enqueueOperation(
  { pool, producer }: Pick<JobStores, 'pool' | 'producer'>,
  contract: OperationJobContract,
  table: OperationTable,
  operation: NewOperation,
): Promise<void> {
  await insertOperation(pool, table, operation);
  await producer.enqueue(contract, { operationId: operation.id });
}

/** The operation's row once its worker finished it (`completed` or `failed`), polled up to the bound. */
export function finishedOperation(
  pool: Pool,
  table: OperationTable,
  id: string,
  timeoutMs = 20_000,
): Promise<OperationState> {
  return waitFor(async () => {
    const row = await findOperation(pool, table, id);
    return row?.status === 'completed' || row?.status === 'failed' ? row : undefined;
  }, timeoutMs);
}

/** An operation's row as killMidOperation reads a status: `{ body: row }` (inserted before its job). */
export function operationStatus(pool: Pool, table: OperationTable): (id: string) => Promise<{ body: OperationState }> {
  return async (id) => ({ body: (await findOperation(pool, table, id))! });
}

/**
 * The job of `payload` delivered once more, under another job id, as a redelivery after its
 * work committed would run it (a job id is derived from the payload, so enqueueing it again
 * adds nothing); answers how that delivery ended.
 */
export function deliverAgain<Payload, Input>(
  producer: Producer,
  contract: JobContract<Payload, Input>,
  payload: Input,
  timeoutMs = 20_000,
): Promise<WaitOutcome> {
  return producer.enqueueAndWait(contract, payload, { jobId: `again-${randomUUID()}`, timeoutMs });
}
