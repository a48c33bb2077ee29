import type { Queue } from 'bullmq';
import { createPool } from '@switchboard/db';
import { cpuPerUnit } from '../../cpu-per-unit.ts';
import { formatMachineCpu } from '../../machine-cpu.ts';
import { ratio } from '../../measure.ts';
import type { Benchmark, BenchContext } from '../../types.ts';
import { postMany, pushDeliveries } from '../webhook-support/drive.ts';
import { realPushPayload, seedWebhook, storedMessages, type BenchWebhook } from '../webhook-support/fixture.ts';
import { emptyQueue, openQueue, pending, unfinished } from '../webhook-support/queue.ts';
import { spawnWorker, WEBHOOK_WORKER_ENTRY } from '../webhook-support/worker-process.ts';
import { drainMeasurement, timeDrain } from './drain.ts';

const NOOP_WORKER_ENTRY = new URL('./noop-worker.ts', import.meta.url).pathname;
const NOOP_QUEUE = 'bench-noop';
const MINIMAL_WORKER_ENTRY = new URL('./minimal-delivery-worker.ts', import.meta.url).pathname;
const MINIMAL_QUEUE = 'bench-minimal-delivery';
/**
 * Jobs each process runs at once: the webhook worker's WORKER_CONCURRENCY default
 * (services/webhook-worker/src/config.ts), given to both processes so they compare like for like.
 */
const CONCURRENCY = 128;
const DRAIN_TIMEOUT_MS = 10 * 60 * 1000;
/** The workers' default pool (DATABASE_POOL_SIZE), given to both so they have the same connections. */
const POOL_SIZE = '10';

/**
 * Enough deliveries for a drain of several seconds at the expected rate (2,000 per --duration
 * second). Fewer drained in a second or less, where the progress polling and the first and last
 * batches weighed on the figure (packages/bench/README.md#the-harness).
 */
function deliveriesFor(context: BenchContext): number {
  return Math.max(1000, 2000 * context.load.durationSeconds);
}

/**
 * Jobs each worker drains before its measured drain, not measured: 500 per --warmup second, and
 * at least STEADY_STATE_WARMUP_JOBS whatever --warmup says, as the HTTP benchmarks warm up before
 * measuring. A freshly started webhook worker compiles its hot code through its first thousands
 * of jobs, and its compiler threads count in its CPU, so its CPU per job falls until about this
 * many (packages/bench/README.md#the-harness). A worker that has been running does not compile;
 * every worker gets the same warm-up.
 */
const STEADY_STATE_WARMUP_JOBS = 20_000;

function warmUpJobsFor(context: BenchContext): number {
  return Math.max(STEADY_STATE_WARMUP_JOBS, 500 * context.load.warmupSeconds);
}

/** Queues `count` real push deliveries through `gateway` while the queue is paused. */
async function fillThroughGateway(
  context: BenchContext,
  gatewayUrl: string,
  hook: BenchWebhook,
  body: string,
  count: number,
) {
  const url = `${gatewayUrl}/v1/webhooks/${hook.webhookId}/${hook.token}/codehost`;
  context.log(`queueing ${count} push deliveries through the gateway`);
  const fill = await postMany(pushDeliveries(url, body), count, 20);
  if (fill.requests !== count || fill.non2xx > 0 || fill.errors > 0) {
    throw new Error(`filling the queue: ${fill.requests} requests, ${fill.non2xx} non-2xx, ${fill.errors} errors`);
  }
}

/** Resumes the paused queue until `done`, then pauses it again: a drain that is not measured. */
async function warmUp(context: BenchContext, queue: Queue, jobs: number, done: () => Promise<boolean>): Promise<void> {
  context.log(`warming the worker up on ${jobs} jobs`);
  await timeDrain(queue, done, DRAIN_TIMEOUT_MS);
  await queue.pause();
}

/** One webhook-worker process drains the deliveries; the clock stops when every message is stored. */
async function measureWorker(context: BenchContext, env: Record<string, string>, count: number) {
  const hook = await seedWebhook(env['DATABASE_URL']!);
  const body = realPushPayload();
  const deliveries = openQueue(env);
  const pool = createPool({ connectionString: env['DATABASE_URL']!, max: 1, applicationName: 'bench-delivery-count' });
  const warmUpJobs = warmUpJobsFor(context);
  // The stored rows are counted once the queue is idle (a job leaves `active` after its message
  // is stored), not every 20 ms throughout: that count over a growing table loaded the database
  // during our drain alone (the other workers' drains poll Redis), on the cores the worker uses
  // (packages/bench/README.md#the-harness).
  const stored = (atLeast: number) => async () =>
    (await pending(deliveries.queue)) === 0 && (await storedMessages(pool, hook.webhookId)) >= atLeast;
  try {
    await deliveries.queue.pause();
    const gateway = await context.startGateway({ RATE_LIMITS_ENABLED: 'false' });
    if (warmUpJobs > 0) await fillThroughGateway(context, gateway.url, hook, body, warmUpJobs);
    const worker = await spawnWorker(context, WEBHOOK_WORKER_ENTRY, {
      ...env,
      WORKER_CONCURRENCY: String(CONCURRENCY),
      DATABASE_POOL_SIZE: POOL_SIZE,
    });
    if (warmUpJobs > 0) await warmUp(context, deliveries.queue, warmUpJobs, stored(warmUpJobs));
    await fillThroughGateway(context, gateway.url, hook, body, count);
    await gateway.stop();
    // Waiting only: a worker's scheduled jobs, if any, wait delayed in the queue.
    if ((await deliveries.queue.getWaitingCount()) !== count) throw new Error('the queue does not hold every delivery');
    const jobBodyBytes = await queuedBodyBytes(deliveries.queue);
    context.log(`draining ${count} deliveries with one webhook worker`);
    const drained = () => timeDrain(deliveries.queue, stored(warmUpJobs + count), DRAIN_TIMEOUT_MS);
    const { result: elapsed, cpuMsPerUnit, machine } = await cpuPerUnit(worker.pid!, drained, () => count);
    const measurement = await drainMeasurement(deliveries.queue, count, elapsed);
    await emptyQueue(deliveries.queue);
    return { measurement, payloadBytes: body.length, jobBodyBytes, cpuMsPerJob: cpuMsPerUnit, machine };
  } finally {
    await pool.end();
    await deliveries.close();
  }
}

/** The size of the body the gateway queued in a waiting delivery job (JSON, bytes). */
async function queuedBodyBytes(queue: Queue): Promise<number> {
  const [job] = await queue.getWaiting(0, 0);
  if (!job) throw new Error('no waiting delivery job');
  return JSON.stringify(job.data.body).length;
}

/**
 * Adds `count` jobs carrying the whole real push inline to a paused queue: the naive job of the
 * baselines (the gateway queues only the part of it the worker reads).
 */
async function fillDirectly(queue: Queue, name: string, count: number): Promise<void> {
  await queue.pause();
  const data = { format: 'codehost', event: 'push', body: { kind: 'inline', value: JSON.parse(realPushPayload()) } };
  for (let added = 0; added < count; added += 500) {
    const batch = Math.min(500, count - added);
    await queue.addBulk(Array.from({ length: batch }, () => ({ name, data })));
  }
}

/** Drains `count` directly added jobs with a spawned worker process; the clock stops when the queue is empty. */
async function measureDirect(context: BenchContext, env: Record<string, string>, target: DirectTarget, count: number) {
  const bench = openQueue(env, target.queue);
  const warmUpJobs = warmUpJobsFor(context);
  const empty = async () => (await unfinished(bench.queue)) === 0;
  try {
    await fillDirectly(bench.queue, target.jobName, warmUpJobs);
    const worker = await spawnWorker(context, target.entry, {
      ...env,
      ...target.env,
      WORKER_CONCURRENCY: String(CONCURRENCY),
    });
    if (warmUpJobs > 0) await warmUp(context, bench.queue, warmUpJobs, empty);
    await fillDirectly(bench.queue, target.jobName, count);
    context.log(`draining ${count} jobs with ${target.description}`);
    const drained = () => timeDrain(bench.queue, empty, DRAIN_TIMEOUT_MS);
    const { result: elapsed, cpuMsPerUnit, machine } = await cpuPerUnit(worker.pid!, drained, () => count);
    const measurement = {
      ...(await drainMeasurement(bench.queue, count, elapsed)),
      cpuMsPerJob: cpuMsPerUnit,
      machine,
    };
    await emptyQueue(bench.queue);
    return measurement;
  } finally {
    await bench.close();
  }
}

interface DirectTarget {
  description: string;
  entry: string;
  queue: string;
  jobName: string;
  env: Record<string, string>;
}

/** The same number of jobs, with the same payload, through a raw BullMQ worker that does nothing. */
const noopTarget: DirectTarget = {
  description: 'one raw BullMQ no-op worker',
  entry: NOOP_WORKER_ENTRY,
  queue: NOOP_QUEUE,
  jobName: 'noop',
  env: { NOOP_QUEUE },
};

/** The same jobs through the naive same-work worker: one message INSERT and one XADD per job. */
async function minimalTarget(env: Record<string, string>): Promise<DirectTarget> {
  const hook = await seedWebhook(env['DATABASE_URL']!);
  return {
    description: 'the minimal-delivery worker (one INSERT and one XADD per job)',
    entry: MINIMAL_WORKER_ENTRY,
    queue: MINIMAL_QUEUE,
    jobName: 'delivery',
    env: {
      MINIMAL_DELIVERY_QUEUE: MINIMAL_QUEUE,
      MINIMAL_DELIVERY_STREAM: `${env['REDIS_PREFIX']}:bench:minimal-events`,
      BENCH_WEBHOOK_ID: hook.webhookId,
      BENCH_CHANNEL_ID: hook.channelId,
      BENCH_GUILD_ID: hook.guildId,
      DATABASE_POOL_SIZE: POOL_SIZE,
    },
  };
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
    const minimal = await measureDirect(context, env, await minimalTarget(env), count);
    const noop = await measureDirect(context, env, noopTarget, count);
    return {
      benchmark: 'delivery-throughput',
      notes: [
        `${count} deliveries (2000 per --duration second, at least 1000), each a real ${worker.payloadBytes}-byte push via POST /codehost, whose job carries the ${worker.jobBodyBytes} bytes of it the worker reads; the minimal-delivery and no-op jobs carry the whole push inline`,
        `one process each, concurrency ${CONCURRENCY} (the webhook worker's WORKER_CONCURRENCY default); req/s = jobs per second from resume to the last stored message (webhook worker) or the drained queue (no-op)`,
        'latency columns: per-job processing time (processedOn → finishedOn) over the last 1000 completed jobs',
        'minimal-delivery: a raw BullMQ worker rendering one naive embed, one message INSERT and one XADD per job, same concurrency and pool size',
        `worker process CPU per job (ms, user + system, over the drain): webhook worker ${worker.cpuMsPerJob.toFixed(3)}, minimal-delivery ${minimal.cpuMsPerJob.toFixed(3)}, no-op ${noop.cpuMsPerJob.toFixed(3)}`,
        `machine CPU per job (ms, every core, the drain's progress polling included; of which PostgreSQL and Redis): webhook worker ${formatMachineCpu(worker.machine)}, minimal-delivery ${formatMachineCpu(minimal.machine)}, no-op ${formatMachineCpu(noop.machine)}`,
        'webhook worker: NODE_ENV=production (development on the development S3 store, which production refuses), LOG_LEVEL=info as deployed (completed jobs log at debug); the no-op worker does not log',
        `each worker first drains ${warmUpJobsFor(context)} jobs of its own (500 per --warmup second, at least ${STEADY_STATE_WARMUP_JOBS}), not measured (a fresh process compiles its hot code meanwhile)`,
        '--connections is not used; PostgreSQL, Redis and the workers share this machine',
      ],
      targets: [
        {
          target: 'webhook-worker (stored messages)',
          url: 'queue webhook-deliveries',
          measurement: worker.measurement,
        },
        { target: 'minimal-delivery (INSERT + XADD per job)', url: `queue ${MINIMAL_QUEUE}`, measurement: minimal },
        { target: 'raw BullMQ no-op', url: `queue ${NOOP_QUEUE}`, measurement: noop },
      ],
      ratios: {
        'worker/minimal-delivery jobs per second': ratio(
          worker.measurement.requestsPerSecond,
          minimal.requestsPerSecond,
        ),
        'worker/no-op jobs per second': ratio(worker.measurement.requestsPerSecond, noop.requestsPerSecond),
        'worker/no-op machine CPU per job': ratio(worker.machine.totalMs, noop.machine.totalMs),
      },
    };
  },
};
