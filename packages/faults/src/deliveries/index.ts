import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { QUEUES, WEBHOOK_DELIVERY_JOB } from '@switchboard/contracts';
import type { Pool } from '@switchboard/db';
import { bullQueue } from '@switchboard/queue';
import { closeRedis, createRedis } from '@switchboard/redis';
import { channelEvents, deliveriesSettled, webhookMessages, type WebhookFixture } from '@switchboard/testkit/webhooks';
import { waitFor } from '@switchboard/testkit/wait';
import type { TestEnvironment } from '@switchboard/testkit/environment';
import { reconcile, type DeliveryLedger } from './ledger.ts';

export { ledgerProblems, type DeliveryLedger } from './ledger.ts';

/** The scenario's webhook-deliveries queue and a Redis connection to read the `events` stream, both direct (never through a proxy). */
export interface DeliveryWatch {
  queue: Queue;
  redis: Redis;
  close(): Promise<void>;
}

export function watchDeliveries(environment: TestEnvironment): DeliveryWatch {
  const redis = createRedis(environment.redisUrl, { role: 'worker', name: 'faults-deliveries' });
  const queue = bullQueue(QUEUES.webhookDeliveries, redis, environment.redisPrefix);
  // A scenario that stops Redis makes this connection fail too; without a listener BullMQ prints each error.
  queue.on('error', () => {});
  return {
    queue,
    redis,
    close: async () => {
      await queue.close();
      await closeRedis(redis);
    },
  };
}

/** Waits until every delivery is handled; answers how many failed for good. */
export async function settleDeliveries(queue: Queue, timeoutMs: number): Promise<number> {
  // Counts first: fetching thousands of waiting jobs on every poll would load Redis for nothing.
  await waitFor(
    async () => Object.values(await queue.getJobCounts('waiting', 'active', 'prioritized')).every((n) => n === 0),
    timeoutMs,
    250,
  );
  return deliveriesSettled(queue, timeoutMs);
}

/** Why the deliveries did not all complete: not settled within `timeoutMs`, or failed for good; empty when they did. */
export async function deliveryProblems(queue: Queue, timeoutMs: number): Promise<string[]> {
  const failedJobs = await settleDeliveries(queue, timeoutMs).catch(() => null);
  if (failedJobs === null) return [`deliveries not settled within ${timeoutMs / 1000} s`];
  return failedJobs > 0 ? [`${failedJobs} delivery jobs failed for good (${await failureReasons(queue)})`] : [];
}

/** Why delivery jobs failed for good, by reason: `3× webhook body … is gone`. */
export async function failureReasons(queue: Queue): Promise<string> {
  const failed = (await queue.getJobs(['failed'])).filter((job) => job?.name === WEBHOOK_DELIVERY_JOB.name);
  const counts = new Map<string, number>();
  for (const job of failed) counts.set(job.failedReason, (counts.get(job.failedReason) ?? 0) + 1);
  return [...counts].map(([reason, count]) => `${count}× ${reason}`).join('; ');
}

/** Accepted executes against what PostgreSQL stored and the `events` stream announced for the webhook. */
export async function deliveryLedger(
  { pool, watch, environment }: { pool: Pool; watch: DeliveryWatch; environment: TestEnvironment },
  hook: Pick<WebhookFixture, 'webhookId' | 'channelId'>,
  accepted: readonly string[],
): Promise<DeliveryLedger> {
  return reconcile({
    accepted,
    stored: await webhookMessages(pool, hook.webhookId),
    events: await channelEvents(watch.redis, environment.eventsStreamKey, hook.channelId),
  });
}
