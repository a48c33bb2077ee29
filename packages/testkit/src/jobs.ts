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
  /**
   * An admin operation started as the gateway starts one (docs/decisions.md#jobs-and-their-rows):
   * its row inserted, queued, then its job enqueued with the row id as payload.
   */
  enqueueOperation(contract: OperationJobContract, table: OperationTable, operation: NewOperation): Promise<void>;
  /** The operation's row once its worker finished it (`completed` or `failed`), polled up to the bound. */
  finishedOperation(table: OperationTable, id: string, timeoutMs?: number): Promise<OperationState>;
  /** An operation's row as killMidOperation reads a status: `{ body: row }` (inserted before its job). */
  operationStatus(table: OperationTable): (id: string) => Promise<{ body: OperationState }>;
  /**
   * The job of `payload` delivered once more, under another job id, as a redelivery after its
   * work committed would run it (a job id is derived from the payload, so enqueueing it again
   * adds nothing); answers how that delivery ended.
   */
  deliverAgain<Payload, Input>(
    contract: JobContract<Payload, Input>,
    payload: Input,
    timeoutMs?: number,
  ): Promise<WaitOutcome>;
}

type OpenedStores = Pick<JobStores, 'pool' | 'redis' | 'producer' | 'storage'>;

/**
 * Call at the top of a test file, after useTestEnvironment(): the stores are opened before the
 * file's first test and closed after its last; the object is filled in before the first test.
 */
export function useJobStores(environment: TestEnvironment, { poolMax = 4 }: { poolMax?: number } = {}): JobStores {
  // The stores themselves are filled in before the file's first test (beforeAll below).
  const stores = {
    async enqueueOperation(contract, table, operation) {
      await insertOperation(stores.pool, table, operation);
      await stores.producer.enqueue(contract, { operationId: operation.id });
    },
    finishedOperation(table, id, timeoutMs = 20_000) {
      return waitFor(async () => {
        const row = await findOperation(stores.pool, table, id);
        return row?.status === 'completed' || row?.status === 'failed' ? row : undefined;
      }, timeoutMs);
    },
    operationStatus(table) {
      return async (id) => ({ body: (await findOperation(stores.pool, table, id))! });
    },
    deliverAgain(contract, payload, timeoutMs = 20_000) {
      return stores.producer.enqueueAndWait(contract, payload, { jobId: `again-${randomUUID()}`, timeoutMs });
    },
  } as JobStores;
  beforeAll(() => {
    const redis = createRedis(environment.redisUrl, { role: 'producer' });
    const opened: OpenedStores = {
      pool: createPool({ connectionString: environment.databaseUrl, max: poolMax }),
      redis,
      producer: createProducer({ connection: redis, redisPrefix: environment.redisPrefix }),
      storage: storageFor(environment),
    };
    Object.assign(stores, opened);
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
