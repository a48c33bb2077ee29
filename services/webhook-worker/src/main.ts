// The webhook-deliveries worker process: `node services/webhook-worker/src/main.ts`.
import { runWorkerService } from '@switchboard/runtime';
import { webhookWorkerConfigSchema } from './config.ts';
import { createWebhookWorkerSetup, WEBHOOK_WORKER_JOBS, WEBHOOK_WORKER_QUEUE } from './setup.ts';

await runWorkerService({
  name: 'webhook-worker',
  queue: WEBHOOK_WORKER_QUEUE,
  contracts: WEBHOOK_WORKER_JOBS,
  handlers: createWebhookWorkerSetup,
  config: webhookWorkerConfigSchema,
});
