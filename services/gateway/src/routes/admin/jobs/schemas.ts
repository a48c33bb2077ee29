import { z } from 'zod';
import { QUEUES, type QueueName } from '@switchboard/contracts';

const queueName = z.enum(Object.values(QUEUES) as [QueueName, ...QueueName[]]);

/** `GET /admin/jobs/failed?queue=&limit=&offset=`: every queue unless one is named. */
export const listFailedJobsQuery = z.object({
  queue: queueName.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(50),
  offset: z.coerce.number().int().min(0).max(100_000).default(0),
});

/** `POST /admin/jobs/retry`: failed jobs by queue and id, at most 100 at once. */
export const retryJobsBody = z.object({
  jobs: z
    .array(z.object({ queue: queueName, id: z.string().min(1).max(200) }))
    .min(1)
    .max(100),
});
