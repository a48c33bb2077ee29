import { Queue, UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { QUEUES } from '@switchboard/contracts';
import { bullPrefix } from '@switchboard/queue';
import { useTestEnvironment, waitFor } from '@switchboard/testkit';
import { errorLine, runCli } from './run-cli.ts';

const environment = useTestEnvironment();

describe('cli jobs', () => {
  it('lists failed jobs and retries one, as the admin routes do', async () => {
    const prefix = bullPrefix(environment.redisPrefix);
    const connection = new Redis(environment.redisUrl, { maxRetriesPerRequest: null });
    const queue = new Queue(QUEUES.bulkOperations, { connection, prefix });
    const worker = new Worker(
      QUEUES.bulkOperations,
      async () => Promise.reject(new UnrecoverableError('no such guild')),
      { connection: connection.duplicate(), prefix },
    );
    try {
      const job = await queue.add('cli-failure', {}, { attempts: 1 });
      await waitFor(async () => (await queue.getJobState(job.id!)) === 'failed', 10_000);
      await worker.close();

      const listed = await runCli(['jobs', 'failed', '--queue', 'bulk-operations'], environment.processEnv());
      expect(listed.code, listed.stderr).toBe(0);
      expect(JSON.parse(listed.stdout).jobs).toEqual([
        {
          queue: 'bulk-operations',
          id: job.id,
          name: 'cli-failure',
          attempts: 1,
          lastError: 'no such guild',
          failedAt: expect.any(String),
        },
      ]);
      const retried = await runCli(
        ['jobs', 'retry', '--queue', 'bulk-operations', '--id', job.id!],
        environment.processEnv(),
      );
      expect([retried.code, JSON.parse(retried.stdout)]).toEqual([0, { outcome: 'retried' }]);
      expect(await queue.getJobState(job.id!)).toBe('waiting');
      const again = await runCli(
        ['jobs', 'retry', '--queue', 'bulk-operations', '--id', job.id!],
        environment.processEnv(),
      );
      expect([again.code, errorLine(again).error]).toEqual([1, 'NOT_FAILED']);
      const badQueue = await runCli(['jobs', 'failed', '--queue', 'nope'], environment.processEnv());
      expect(badQueue.code).toBe(2);
    } finally {
      await worker.close();
      await queue.close();
      connection.disconnect();
    }
  });
});
