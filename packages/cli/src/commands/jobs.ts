import { z } from '@switchboard/config';
import { QUEUES, type QueueName } from '@switchboard/contracts';
import { createProducer, type Producer } from '@switchboard/queue';
import { closeRedis, createRedis, redisTarget } from '@switchboard/redis';
import { intOption, parseOptions } from '../args.ts';
import { defineCommand } from '../command.ts';
import type { CliConfig } from '../config.ts';
import { CliError, EXIT } from '../output.ts';

const queueOption = z.enum(Object.values(QUEUES) as [QueueName, ...QueueName[]]);

/** Runs `work` with a producer on the deployment's queues (the API's failed-job routes use the same). */
async function withQueues<T>(config: CliConfig, work: (producer: Producer) => Promise<T>): Promise<T> {
  if (!config.REDIS_URL) {
    throw new CliError('INVALID_CONFIG', 'Invalid configuration.', {
      exitCode: EXIT.config,
      details: ['REDIS_URL: required by the jobs commands'],
    });
  }
  const redis = createRedis(redisTarget({ ...config, REDIS_URL: config.REDIS_URL }), {
    role: 'producer',
    name: 'cli-jobs',
  });
  const producer = createProducer({ connection: redis, redisPrefix: config.REDIS_PREFIX });
  try {
    return await work(producer);
  } finally {
    await producer.close();
    await closeRedis(redis);
  }
}

/** `jobs failed`: what GET /admin/jobs/failed answers, for an operator at the machine. */
export const jobsFailedCommand = defineCommand({
  name: 'jobs failed',
  usage: 'jobs failed [--queue <name>] [--limit 1..100]: failed jobs, newest first; prints {"jobs": [...]}',
  parse: (args) =>
    parseOptions(
      args,
      { queue: { type: 'string' }, limit: { type: 'string' } },
      z.object({ queue: queueOption.optional(), limit: intOption(1, 100).default(50) }),
    ),
  run: (options, config) =>
    withQueues(config, async (producer) => {
      const { jobs } = await producer.failedJobs(
        options.queue ? [options.queue] : Object.values(QUEUES),
        0,
        options.limit,
      );
      return { jobs: jobs.map((job) => ({ ...job, failedAt: new Date(job.failedAt).toISOString() })) };
    }),
});

/** `jobs retry`: one failed job back to waiting, attempts reset (the API's retry, unaudited: no admin acts). */
export const jobsRetryCommand = defineCommand({
  name: 'jobs retry',
  usage:
    'jobs retry --queue <name> --id <job id>: a failed job back to waiting; prints {"outcome": "retried" | "unknown_job" | "not_failed"}',
  parse: (args) =>
    parseOptions(
      args,
      { queue: { type: 'string' }, id: { type: 'string' } },
      z.object({ queue: queueOption, id: z.string().min(1).max(200) }),
    ),
  run: (options, config) =>
    withQueues(config, async (producer) => {
      const outcome = await producer.retryFailedJob(options.queue, options.id);
      if (outcome !== 'retried')
        throw new CliError(
          outcome === 'unknown_job' ? 'UNKNOWN_JOB' : 'NOT_FAILED',
          `Job ${options.id} was not retried: ${outcome}.`,
        );
      return { outcome };
    }),
});
