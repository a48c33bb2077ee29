import { setTimeout as sleep } from 'node:timers/promises';
import { createPool } from '@switchboard/db';
import { closeRedis, createRedis } from '@switchboard/redis';
import { snowflakeTimestamp } from '@switchboard/snowflake';
import { latencySummary, type Measurement } from '../../measure.ts';
import { pacedLoad } from '../../load-generator.ts';
import type { Benchmark } from '../../types.ts';
import { pacedPosts, pushDeliveries } from '../webhook-support/drive.ts';
import { realPushPayload, seedWebhook, storedMessages } from '../webhook-support/fixture.ts';
import { emptyQueue, openQueue } from '../webhook-support/queue.ts';
import { spawnWorker, WEBHOOK_WORKER_ENTRY } from '../webhook-support/worker-process.ts';
import { stageBreakdown, type StoredAt } from './stages.ts';

/** The offered load: deliveries a second, across all connections (the rate). */
const RATE = 1_000;
/**
 * A second, lighter load: near saturation (a 2-core machine running the load, both processes,
 * PostgreSQL and Redis) the figure at RATE is mostly queueing; this one shows the pipeline's own.
 */
const LIGHT_RATE = 250;
const STORE_TIMEOUT_MS = 60_000;
/**
 * The least warm-up at RATE, whatever --warmup says. Some seconds into a steady 1,000 a second,
 * the gateway's, the worker's and the load generator's V8 threads all compile optimised code at
 * once, and the messages accepted meanwhile wait for CPU; after the default warm-up that burst
 * fell inside the measured window (packages/bench/README.md#the-harness). A long-running gateway
 * compiled its hot code long ago: the figure wanted is the steady state's.
 */
const STEADY_STATE_WARMUP_SECONDS = 15;
const PAGE = 5_000;

/**
 * When each message accepted at or after `sinceMs` was stored: the events-stream entry the
 * worker appends once the row is committed (the entry id's ms), by message id. Its accepted
 * time is its snowflake's, minted by the gateway when it accepts the delivery.
 */
async function storedTimes(redisUrl: string, streamKey: string, sinceMs: number): Promise<Map<string, number>> {
  const redis = createRedis(redisUrl, { role: 'worker', name: 'bench-delivery-latency' });
  const storedAt = new Map<string, number>();
  try {
    let start = String(sinceMs);
    for (;;) {
      const entries = await redis.xrange(streamKey, start, '+', 'COUNT', PAGE);
      for (const [entryId, fields] of entries) {
        const messageId = fields[fields.indexOf('message_id') + 1]!;
        if (snowflakeTimestamp(messageId).getTime() >= sinceMs) storedAt.set(messageId, Number(entryId.split('-')[0]));
      }
      if (entries.length < PAGE) return storedAt;
      start = `(${entries.at(-1)![0]}`;
    }
  } finally {
    await closeRedis(redis);
  }
}

/** accepted → stored, per message, in ms. */
function acceptedToStoredMs(storedAt: StoredAt): number[] {
  return [...storedAt].map(([messageId, storedMs]) => storedMs - snowflakeTimestamp(messageId).getTime());
}

/**
 * End-to-end latency under a steady 1,000 deliveries a second, then 250: real pushes POSTed to
 * /codehost through a spawned gateway at a fixed rate (measurePaced: open loop) while one
 * webhook worker stores them; each message's accepted → stored time is read afterwards from
 * its id and its MESSAGE_CREATE entry, so the measurement adds nothing to either process.
 */
export const deliveryLatency: Benchmark = {
  name: 'delivery-latency',
  description: `accepted → stored per message (p50/p99) at a steady ${RATE} webhook deliveries a second, then ${LIGHT_RATE}, gateway + one worker`,
  async run(context) {
    const env = await context.serviceEnv();
    const hook = await seedWebhook(env['DATABASE_URL']!);
    const streamKey = `${env['REDIS_PREFIX']}:bench:events`;
    // The whole system on this machine, as `npm start` runs it: the gateway leaves cores to the worker.
    const gateway = await context.startGateway({ RATE_LIMITS_ENABLED: 'false', GATEWAY_PROCESSES: 'shared' });
    await spawnWorker(context, WEBHOOK_WORKER_ENTRY, { ...env, EVENTS_STREAM_KEY: streamKey });
    const url = `${gateway.url}/v1/webhooks/${hook.webhookId}/${hook.token}/codehost`;
    const load = pacedPosts(pushDeliveries(url, realPushPayload()));
    const pool = createPool({
      connectionString: env['DATABASE_URL']!,
      max: 1,
      applicationName: 'bench-delivery-latency',
    });
    const deliveries = openQueue(env);
    /** Every delivery accepted so far, all phases: each phase waits until as many are stored. */
    let accepted = 0;
    /** One phase at `rate`: HTTP accept as the client saw it, and accepted → stored per message. */
    const measureAt = async (
      rate: number,
      warmupSeconds: number,
    ): Promise<{ http: Measurement; endToEnd: Measurement; stages: string }> => {
      const paced = (durationSeconds: number) =>
        pacedLoad(load, { requestsPerSecond: rate, durationSeconds, connections: context.load.connections });
      context.log(
        `${rate} deliveries/s for ${warmupSeconds} s warm-up, then ${context.load.durationSeconds} s measured`,
      );
      // The warm-up's deliveries are excluded by time: only those accepted after this instant count.
      const warm = warmupSeconds > 0 ? await paced(warmupSeconds) : undefined;
      const measuredFromMs = Date.now();
      const http = await paced(context.load.durationSeconds);
      for (const run of [warm, http]) {
        if (run && (run.non2xx > 0 || run.errors > 0)) {
          throw new Error(
            `${run.non2xx} non-2xx answers and ${run.errors} errors at ${rate}/s (${JSON.stringify({ ...run.statusCodes, ...run.errorCodes })})`,
          );
        }
      }
      accepted += (warm?.requests ?? 0) + http.requests;
      const waitedFrom = performance.now();
      while ((await storedMessages(pool, hook.webhookId)) < accepted) {
        if (performance.now() - waitedFrom > STORE_TIMEOUT_MS) throw new Error('deliveries not all stored within 60 s');
        await sleep(50);
      }
      const storedAt = await storedTimes(env['REDIS_URL']!, streamKey, measuredFromMs);
      const lags = acceptedToStoredMs(storedAt);
      const endToEnd = {
        ...http,
        requestsPerSecond: lags.length / context.load.durationSeconds,
        latencyMs: latencySummary(lags),
        requests: lags.length,
      };
      return { http, endToEnd, stages: await stageBreakdown(deliveries.queue, storedAt) };
    };
    try {
      const warmupSeconds = Math.max(context.load.warmupSeconds, STEADY_STATE_WARMUP_SECONDS);
      const { http, endToEnd, stages } = await measureAt(RATE, warmupSeconds);
      // Everything of the first phase is stored by now: the lighter one starts on an empty queue.
      const light = await measureAt(LIGHT_RATE, 0);
      return {
        benchmark: 'delivery-latency',
        notes: [
          `offered load: a steady ${RATE} real pushes a second (open loop, one due every ms, up to ${context.load.connections} connections), a fresh X-GitHub-Delivery each; ${http.requests} accepted in the measured window, every one stored`,
          `warm-up at ${RATE}/s: ${warmupSeconds} s, at least ${STEADY_STATE_WARMUP_SECONDS} whatever --warmup says (the processes' optimising compiler is busiest about 10 s into this load)`,
          `then ${LIGHT_RATE} a second for ${context.load.durationSeconds} s once all of those were stored (no warm-up): the pipeline's own latency, away from saturation`,
          'accepted → stored: the message snowflake (minted by the gateway on accept) to its MESSAGE_CREATE stream entry (appended after the row commits), 1 ms resolution',
          `stages at ${RATE}/s, the phase's last deliveries: ${stages}`,
          `stages at ${LIGHT_RATE}/s, the phase's last deliveries: ${light.stages}`,
          'accepted → enqueued: the webhook lookup (memory) and the body placed; enqueued → taken: the add and the worker taking the job (Redis); taken → stored: rendering, the dedupe key and insert (one batched statement) and the event',
          'gateway (rate limits off; GATEWAY_PROCESSES=shared, one process per two cores, as npm start runs it) and one webhook worker (defaults: concurrency 128), NODE_ENV=production (development on the development S3 store, which production refuses); PostgreSQL, Redis and autocannon share this machine',
        ],
        targets: [
          {
            target: 'accepted → stored (per message)',
            url: 'gateway → webhook-deliveries → webhook-worker',
            measurement: endToEnd,
          },
          {
            target: 'HTTP accept (client-side)',
            url: `${gateway.url}/v1/webhooks/{id}/{token}/codehost`,
            measurement: http,
          },
          {
            target: `accepted → stored at ${LIGHT_RATE}/s`,
            url: 'gateway → webhook-deliveries → webhook-worker',
            measurement: light.endToEnd,
          },
          {
            target: `HTTP accept at ${LIGHT_RATE}/s`,
            url: `${gateway.url}/v1/webhooks/{id}/{token}/codehost`,
            measurement: light.http,
          },
        ],
        ratios: {},
      };
    } finally {
      await emptyQueue(deliveries.queue).catch(() => undefined);
      await deliveries.close();
      await pool.end();
    }
  },
};
