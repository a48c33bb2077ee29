import { expect, it } from 'vitest';
import { z } from 'zod';
import { defineJob, QUEUES } from '@switchboard/contracts';
import { runWorkerService } from '../src/index.ts';
import { countedJob } from './fixtures/jobs.ts';

// The queue a worker consumes is the one its jobs name; jobs of two queues, or none, are refused
// before the process opens anything (startWorker's own check comes after the resources and lease).
const otherQueueJob = defineJob({ queue: QUEUES.bulkOperations, name: 'test-other', payload: z.object({}) });

it('refuses jobs that name two queues before opening anything', async () => {
  await expect(
    runWorkerService({ name: 'mixed-worker', contracts: [countedJob, otherQueueJob], handlers: {} as never }),
  ).rejects.toThrow("a worker's jobs must name one queue; these name archive-exports, bulk-operations");
});

it('refuses a worker without jobs', async () => {
  await expect(runWorkerService({ name: 'idle-worker', contracts: [], handlers: {} })).rejects.toThrow(
    "a worker's jobs must name one queue; these name none",
  );
});
