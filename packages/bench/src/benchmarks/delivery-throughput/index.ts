import { createPool } from '@switchboard/db';
import { ratio } from '../../measure.ts';
import type { Benchmark, BenchContext } from '../../types.ts';
import { postMany } from '../webhook-support/drive.ts';
import { realPushPayload, seedWebhook, storedMessages, type BenchWebhook } from '../webhook-support/fixture.ts';
import { emptyQueue, openQueue, unfinished } from '../webhook-support/queue.ts';
import { spawnWorker, WEBHOOK_WORKER_ENTRY } from '../webhook-support/worker-process.ts';
import { drainMeasurement, timeDrain } from './drain.ts';

const NOOP_WORKER_ENTRY = new URL('./noop-worker.ts', import.meta.url).pathname;
const NOOP_QUEUE = 'bench-noop';
/**
 * Jobs each process runs at once: the webhook worker's WORKER_CONCURRENCY default
 * (services/webhook-worker/src/config.ts), given to both processes so they compare like for like.
 */
const CONCURRENCY = 32;
const DRAIN_TIMEOUT_MS = 10 * 60 * 1000;

/** Enough deliveries for a drain of several seconds at the expected rate. */
function deliveriesFor(context: BenchContext): number {
  return Math.max(1000, 500 * context.load.durationSeconds);
}

/** Queues `count` real push deliveries through the gateway while the queue is paused. */
async function fillThroughGateway(context: BenchContext, hook: BenchWebhook, body: string, count: number) {
  const gateway = await context.startGateway({ RATE_LIMITS_ENABLED: 'false' });
  const url = `${gateway.url}/v1/webhooks/${hook.webhookId}/${hook.token}/codehost`;
  context.log(`queueing ${count} push deliveries through the gateway`);
  const fill = await postMany({ url, body, headers: { 'x-github-event': 'push' }, uniqueHeader: 'x-github-delivery' }, count, 20);
  if (fill.requests !== count || fill.non2xx > 0 || fill.errors > 0) {
    throw new Error(`filling the queue: ${fill.requests} requests, ${fill.non2xx} non-2xx, ${fill.errors} errors`);
  }
  await gateway.stop();
}

/** One webhook-worker process drains the deliveries; the clock stops when every message is stored. */
async function measureWorker(context: BenchContext, env: Record<string, string>, count: number) {
  const hook = await seedWebhook(env['DATABASE_URL']!);
  const body = realPushPayload();
  const deliveries = openQueue(env);
  const pool = createPool({ connectionString: env['DATABASE_URL']!, max: 1, applicationName: 'bench-delivery-count' });
  try {
    await deliveries.queue.pause();
    await fillThroughGateway(context, hook, body, count);
    if ((await unfinished(deliveries.queue)) !== count) throw new Error('the queue does not hold every delivery');
    await spawnWorker(context, WEBHOOK_WORKER_ENTRY, { ...env, WORKER_CONCURRENCY: String(CONCURRENCY) });
    context.log(`draining ${count} deliveries with one webhook worker`);
    const elapsed = await timeDrain(deliveries.queue, async () => (await storedMessages(pool, hook.webhookId)) >= count, DRAIN_TIMEOUT_MS);
    const measurement = await drainMeasurement(deliveries.queue, count, elapsed);
    await emptyQueue(deliveries.queue);
    return { measurement, payloadBytes: body.length };
  } finally {
    await pool.end();
    await deliveries.close();
  }
}

/** The same number of jobs, with the same payload, through a raw BullMQ worker that does nothing. */
async function measureNoop(context: BenchContext, env: Record<string, string>, count: number) {
  const noop = openQueue(env, NOOP_QUEUE);
  try {
    await noop.queue.pause();
    const data = { format: 'codehost', event: 'push', body: { kind: 'inline', value: JSON.parse(realPushPayload()) } };
    for (let added = 0; added < count; added += 500) {
      const batch = Math.min(500, count - added);
      await noop.queue.addBulk(Array.from({ length: batch }, () => ({ name: 'noop', data })));
    }
    await spawnWorker(context, NOOP_WORKER_ENTRY, { ...env, NOOP_QUEUE, WORKER_CONCURRENCY: String(CONCURRENCY) });
    context.log(`draining ${count} no-op jobs with one raw BullMQ worker`);
    const elapsed = await timeDrain(noop.queue, async () => (await unfinished(noop.queue)) === 0, DRAIN_TIMEOUT_MS);
    const measurement = await drainMeasurement(noop.queue, count, elapsed);
    await emptyQueue(noop.queue);
    return measurement;
  } finally {
    await noop.close();
  }
}

/**
 * End-to-end deliveries with ONE worker process: real push deliveries queued through the
 * gateway (paused queue), then drained by services/webhook-worker (render, insert, append
 * MESSAGE_CREATE) until every message is stored; against a raw BullMQ no-op worker draining
 * the same number of jobs of the same size, in the same run.
 */
export const deliveryThroughput: Benchmark = {
  name: 'delivery-throughput',
  description: 'webhook deliveries → stored messages per second with one worker, vs raw BullMQ no-op jobs per second',
  async run(context) {
    const env = await context.serviceEnv();
    const count = deliveriesFor(context);
    const worker = await measureWorker(context, env, count);
    const noop = await measureNoop(context, env, count);
    return {
      benchmark: 'delivery-throughput',
      notes: [
        `${count} deliveries (500 per --duration second, at least 1000), each a real ${worker.payloadBytes}-byte push via POST /codehost`,
        `one process each, concurrency ${CONCURRENCY} (the webhook worker's WORKER_CONCURRENCY default); req/s = jobs per second from resume to the last stored message (webhook worker) or the drained queue (no-op)`,
        'latency columns: per-job processing time (processedOn → finishedOn) over the last 1000 completed jobs',
        'webhook worker: NODE_ENV=production, LOG_LEVEL=info as deployed (completed jobs log at debug); the no-op worker does not log',
        '--connections and --warmup are not used; PostgreSQL, Redis and both workers share this machine',
      ],
      targets: [
        { target: 'webhook-worker (stored messages)', url: 'queue webhook-deliveries', measurement: worker.measurement },
        { target: 'raw BullMQ no-op', url: `queue ${NOOP_QUEUE}`, measurement: noop },
      ],
      ratios: { 'worker/no-op jobs per second': ratio(worker.measurement.requestsPerSecond, noop.requestsPerSecond) },
    };
  },
};
