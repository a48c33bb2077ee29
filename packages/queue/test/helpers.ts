import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { z } from 'zod';
import { createLogger } from '@switchboard/logger';
import { defineJob, type JobDefaults, type QueueName } from '@switchboard/contracts';
import type { TestEnvironment } from '@switchboard/testkit/environment';
import { closeRedis, createRedis } from '@switchboard/redis';
import { bullQueue, createProducer, type Producer } from '../src/index.ts';

export const silentLogger = createLogger('queue-test', 'silent');

/** A job of the tests' own on `queue`: its payload an id (the job id) and an integer. */
export function testJob<const Name extends string>(queue: QueueName, name: Name, defaults: Partial<JobDefaults>) {
  return defineJob({
    queue,
    name,
    payload: z.object({ id: z.string(), value: z.number().int() }),
    jobId: (payload) => payload.id,
    defaults,
  });
}

let counter = 0;
/** A REDIS_PREFIX of the test's own under the file's, so tests never share queues. */
export function testPrefix(filePrefix: string): string {
  counter += 1;
  return `${filePrefix}.t${counter}`;
}

/**
 * Call at the top of a test file, after useTestEnvironment(): the file's producer-role
 * connection, opened before its first test and closed after its last (the environment then
 * removes the keys of the file's prefix, the test prefixes below it included).
 */
export function useFileRedis(environment: TestEnvironment, name: string): () => Redis {
  let redis: Redis | undefined;
  beforeAll(() => {
    redis = createRedis(environment.redisUrl, { role: 'producer', name });
  });
  afterAll(async () => {
    if (redis) await closeRedis(redis);
  });
  return () => {
    if (!redis) throw new Error('the file Redis connection is opened before the first test');
    return redis;
  };
}

export interface IsolatedQueue {
  redisPrefix: string;
  producer: Producer;
  /** A raw view of the queue, to look at (or tamper with) what the code under test stored. */
  queue: Queue;
  /** Closes the producer and the raw view. */
  close(): Promise<void>;
}

/** A REDIS_PREFIX of the test's own under the file's, with a producer and a raw view of `name`. */
export function isolatedQueue(redis: Redis, filePrefix: string, name: QueueName): IsolatedQueue {
  const redisPrefix = testPrefix(filePrefix);
  const producer = createProducer({ connection: redis, redisPrefix });
  const queue = rawQueue(redis, redisPrefix, name);
  return {
    redisPrefix,
    producer,
    queue,
    close: async () => {
      await producer.close();
      await queue.close();
    },
  };
}

/** A plain BullMQ queue, to look at (or tamper with) what the code under test stored. */
export function rawQueue(connection: Redis, redisPrefix: string, name: QueueName): Queue {
  return bullQueue(name, connection, redisPrefix);
}

export async function jobState(queue: Queue, jobId: string): Promise<string | undefined> {
  const job = await queue.getJob(jobId);
  return job ? job.getState() : undefined;
}

export interface Deferred {
  promise: Promise<void>;
  resolve: () => void;
  settled: boolean;
}

export function deferred(): Deferred {
  const result = { settled: false } as Deferred;
  result.promise = new Promise<void>((done) => {
    result.resolve = () => {
      result.settled = true;
      done();
    };
  });
  return result;
}
