import { z } from 'zod';
import { UnrecoverableError } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { defineJob, QUEUES } from '@switchboard/contracts';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { waitFor } from '@switchboard/testkit/wait';
import {
  startWorker,
  type AnyJobSchedule,
  type FinalFailureHandlersFor,
  type JobHandler,
  type JobSchedule,
} from '../src/index.ts';
import { isolatedQueue, silentLogger, useFileRedis } from './helpers.ts';

const environment = useTestEnvironment();
const redis = useFileRedis(environment, 'lifecycle-test');

const chore = defineJob({
  queue: QUEUES.bulkOperations,
  name: 'test-chore',
  payload: z.object({ id: z.string() }),
  jobId: (payload) => payload.id,
  defaults: { attempts: 2, backoff: { type: 'fixed', delayMs: 50 } },
});
const CHORES = [chore] as const;

async function withWorker(
  handler: JobHandler<{ id: string }>,
  extra: { onFinalFailure?: FinalFailureHandlersFor<typeof CHORES>; schedules?: AnyJobSchedule[] },
  work: (queue: ReturnType<typeof isolatedQueue>) => Promise<void>,
  redisPrefix?: string,
) {
  const isolated = isolatedQueue(redis(), environment.redisPrefix, QUEUES.bulkOperations);
  const worker = await startWorker({
    queue: QUEUES.bulkOperations,
    contracts: CHORES,
    handlers: { 'test-chore': handler },
    ...extra,
    connection: environment.redisUrl,
    redisPrefix: redisPrefix ?? isolated.redisPrefix,
    logger: silentLogger,
  });
  try {
    await work(isolated);
  } finally {
    await worker.close(1000);
    await isolated.close();
  }
}

describe('final failure', () => {
  it('runs the handler once, after the last attempt, with the payload and the reason', async () => {
    const finalFailures: Array<{ id: string; reason: string }> = [];
    let runs = 0;
    await withWorker(
      async () => {
        runs += 1;
        throw new Error(`broken ${runs}`);
      },
      {
        onFinalFailure: {
          'test-chore': async (payload, reason) => void finalFailures.push({ id: payload.id, reason }),
        },
      },
      async ({ producer }) => {
        await producer.enqueue(chore, { id: 'doomed' });
        await waitFor(async () => finalFailures.length > 0, 10_000);
        // Retries first: the hook saw neither the first failure nor anything twice.
        expect(runs).toBe(2);
        expect(finalFailures).toEqual([{ id: 'doomed', reason: 'broken 2' }]);
      },
    );
  });

  it('runs at once for an unrecoverable error, and not at all for a job that succeeds on retry', async () => {
    const finalFailures: string[] = [];
    await withWorker(
      async ({ id }, { attemptsMade }) => {
        if (id === 'poison') throw new UnrecoverableError('cannot ever work');
        if (attemptsMade === 0) throw new Error('transient');
        return 'ok';
      },
      { onFinalFailure: { 'test-chore': async ({ id }) => void finalFailures.push(id) } },
      async ({ producer }) => {
        const recovered = await producer.enqueueAndWait(chore, { id: 'flaky' }, { timeoutMs: 10_000 });
        expect(recovered.state).toBe('completed');
        await producer.enqueue(chore, { id: 'poison' });
        await waitFor(async () => finalFailures.length > 0, 10_000);
        expect(finalFailures).toEqual(['poison']);
      },
    );
  });

  it('tries the handler again when it fails, as when the database is away for a moment', async () => {
    const tries: string[] = [];
    await withWorker(
      async () => {
        throw new UnrecoverableError('cannot ever work');
      },
      {
        onFinalFailure: {
          'test-chore': async ({ id }) => {
            tries.push(id);
            if (tries.length < 3) throw new Error('connection terminated');
          },
        },
      },
      async ({ producer }) => {
        await producer.enqueue(chore, { id: 'unlucky' });
        await waitFor(async () => tries.length >= 3, 10_000);
        // It succeeded on the third try: no fourth.
        await new Promise((resolve) => setTimeout(resolve, 1500));
        expect(tries).toEqual(['unlucky', 'unlucky', 'unlucky']);
      },
    );
  });
});

describe('schedules', () => {
  it('adds one job per tick however many workers set the same schedule up', async () => {
    const runs: string[] = [];
    const schedule: JobSchedule<{ id: string }> = {
      id: 'test-chore-every-100ms',
      contract: chore,
      payload: { id: 'tick' },
      everyMs: 100,
    };
    const isolated = isolatedQueue(redis(), environment.redisPrefix, QUEUES.bulkOperations);
    try {
      // Two workers (two replicas) upsert the same schedule: it exists once.
      await withWorker(
        async ({ id }) => void runs.push(id),
        { schedules: [schedule] },
        async () => {
          await withWorker(
            async ({ id }) => void runs.push(id),
            { schedules: [schedule] },
            async () => {
              await waitFor(async () => runs.length >= 3, 10_000);
              const schedulers = await isolated.queue.getJobSchedulers();
              expect(schedulers.map((scheduler) => scheduler.key)).toEqual(['test-chore-every-100ms']);
            },
            isolated.redisPrefix,
          );
        },
        isolated.redisPrefix,
      );
      expect(new Set(runs)).toEqual(new Set(['tick']));
    } finally {
      await isolated.close();
    }
  });

  it('removes a schedule of its queue that it no longer declares, and keeps the ones it does', async () => {
    const isolated = isolatedQueue(redis(), environment.redisPrefix, QUEUES.bulkOperations);
    try {
      // As an earlier version left it: a scheduler whose jobs no handler of this version takes.
      await isolated.queue.upsertJobScheduler('retired-chore', { every: 60_000 }, { name: 'retired-chore', data: {} });
      const kept: JobSchedule<{ id: string }> = {
        id: 'test-chore-hourly',
        contract: chore,
        payload: { id: 'hourly' },
        everyMs: 3_600_000,
      };
      await withWorker(
        async () => undefined,
        { schedules: [kept] },
        async () => {
          const schedulers = await isolated.queue.getJobSchedulers();
          expect(schedulers.map((scheduler) => scheduler.key)).toEqual(['test-chore-hourly']);
        },
        isolated.redisPrefix,
      );
    } finally {
      await isolated.close();
    }
  });
});
