export { webhookWorkerConfigSchema, type WebhookWorkerConfig } from './config.ts';
export { createWebhookWorkerSetup, WEBHOOK_WORKER_JOBS, WEBHOOK_WORKER_QUEUE } from './setup.ts';
export { deliveryHandler, type DeliveryDeps, type TestDelay } from './deliver.ts';
export { publishedMarkerKey, type EventStreamOptions } from './events.ts';
export { renderDelivery, UndeliverableError, type Rendering } from './render.ts';
export { deleteHandler, editHandler, type MessageChangeDeps } from './message-changes.ts';
