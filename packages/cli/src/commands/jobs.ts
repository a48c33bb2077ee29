import { z } from '@switchboard/config';
import { QUEUES, type QueueName } from '@switchboard/contracts';
import { intOption } from '../args.ts';
import { defineCommand } from '../command.ts';
import { CliError } from '../output.ts';
import { table } from '../render.ts';

const queueOption = z.enum(Object.values(QUEUES) as [QueueName, ...QueueName[]]);
const QUEUE_NAMES = Object.values(QUEUES).join('|');

interface FailedJobs {
  jobs: Array<{ queue: string; id: string; name: string; attempts: number; last_error: string; failed_at: string }>;
  total: number;
}

export const jobsFailedCommand = defineCommand({
  name: 'jobs failed',
  summary: 'failed jobs of one queue or of all, newest failure first',
  uses: 'api',
  options: {
    queue: { type: 'string', value: QUEUE_NAMES, description: 'only this queue' },
    limit: { type: 'string', value: '1..100', description: 'jobs per page (50)' },
    offset: { type: 'string', value: 'N', description: 'jobs to skip' },
  },
  schema: z.object({
    queue: queueOption.optional(),
    limit: intOption(1, 100).default(50),
    offset: intOption(0, 100_000).default(0),
  }),
  run: (options, api) => api.request<FailedJobs>('GET', '/v1/admin/jobs/failed', { query: options }),
  render: (result) =>
    table(result.jobs, ['queue', 'id', 'name', 'attempts', 'failed_at', 'last_error'], '(no failed jobs)'),
});

export const jobsRetryCommand = defineCommand({
  name: 'jobs retry',
  summary: 'a failed job back to waiting, its attempts reset',
  uses: 'api',
  audited: true,
  options: {
    queue: { type: 'string', value: QUEUE_NAMES, description: "the job's queue" },
    id: { type: 'string', value: 'ID', description: "the job's id (jobs failed lists them)" },
  },
  schema: z.object({ queue: queueOption, id: z.string().min(1).max(200) }),
  run: async (options, api) => {
    const answer = await api.request<{ retried: unknown[]; errors: Array<{ error: string }> }>(
      'POST',
      '/v1/admin/jobs/retry',
      { body: { jobs: [{ queue: options.queue, id: options.id }] } },
    );
    const refused = answer.errors[0];
    if (refused) throw new CliError(refused.error, `Job ${options.id} was not retried: ${refused.error}.`);
    return { outcome: 'retried', queue: options.queue, id: options.id };
  },
});
