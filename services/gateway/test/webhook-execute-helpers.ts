import type { Queue } from 'bullmq';
import { afterAll, beforeAll } from 'vitest';
import { createSnowflakeGenerator } from '@switchboard/snowflake';
import { spawnService, type ServiceProcess } from '@switchboard/testkit/processes';
import { testSnowflakeWorkerId } from '@switchboard/testkit/ids';
import { webhookDeliveriesQueue, type WebhookFixture } from '@switchboard/testkit/webhooks';
import type { TestEnvironment } from '@switchboard/testkit/environment';
import { useWorkersPerTest } from '@switchboard/testkit/use-worker';
import { startGateway, type RunningGateway } from './helpers.ts';

/** Ids for what a test makes up beyond its fixtures (an unknown webhook, a claim's message). */
export const fixtureIds = createSnowflakeGenerator(testSnowflakeWorkerId());

const WEBHOOK_WORKER_ENV = { LOG_LEVEL: 'info' };

/**
 * `node services/webhook-worker/src/main.ts` on this file's stores, once it takes jobs. It logs
 * at info, so that a test can check what its logs leave out.
 */
export function spawnWebhookWorker(
  environment: TestEnvironment,
  extra: Record<string, string> = {},
): Promise<ServiceProcess> {
  return spawnService('webhook-worker', environment.processEnv({ ...WEBHOOK_WORKER_ENV, ...extra }));
}

/** As spawnWebhookWorker, for workers a test starts: each is stopped after it, with `signal`. */
export function useWebhookWorkersPerTest(environment: TestEnvironment, signal?: NodeJS.Signals) {
  return useWorkersPerTest(environment, 'webhook-worker', { env: WEBHOOK_WORKER_ENV, signal });
}

export function executeUrl(
  gateway: { url: string },
  hook: Pick<WebhookFixture, 'webhookId' | 'token'>,
  suffix = '',
): string {
  return `${gateway.url}/v1/webhooks/${hook.webhookId}/${hook.token}${suffix}`;
}

/** The webhook-deliveries queue of the gateway's prefix, to look at what the worker did; close it when done. */
export function deliveriesQueue(gateway: RunningGateway): Queue {
  return webhookDeliveriesQueue(gateway.redis, gateway.config.REDIS_PREFIX);
}

// Shared with the fault suite and the webhook worker's tests: the one copy lives in testkit.
export { deliveriesSettled, deliveryJobs, messagesOf } from '@switchboard/testkit/webhooks';

/** A file's gateway and webhook worker, both running from its first test to after its last. */
export interface ExecuteStack {
  gateway: RunningGateway;
  worker: ServiceProcess;
  /** The gateway's webhook-deliveries queue (see deliveriesQueue). */
  deliveries: Queue;
}

/**
 * Call at the top of a test file: starts the gateway (rate limits off unless `gateway` says
 * otherwise) and a spawned webhook worker before the first test, stops both after the last.
 */
export function useExecuteStack(
  environment: TestEnvironment,
  extra: { gateway?: Record<string, string>; worker?: Record<string, string> } = {},
): ExecuteStack {
  const stack = {} as ExecuteStack;
  beforeAll(async () => {
    [stack.gateway, stack.worker] = await Promise.all([
      startGateway(environment, { RATE_LIMITS_ENABLED: 'false', ...extra.gateway }),
      spawnWebhookWorker(environment, extra.worker),
    ]);
    stack.deliveries = deliveriesQueue(stack.gateway);
  });
  afterAll(async () => {
    await stack.deliveries?.close();
    await stack.worker?.stop();
    await stack.gateway?.close();
  });
  return stack;
}
