import { formatMachineCpu } from '../../machine-cpu.ts';
import { ratio, STEADY_STATE_WARMUP_SECONDS, withSteadyStateWarmup } from '../../measure.ts';
import { forkHelper } from '../../processes.ts';
import type { Benchmark } from '../../types.ts';
import { pacedLoad } from '../../load-generator.ts';
import { measurePosts, measurePostsWithCpu, pacedPosts, pushDeliveries } from '../webhook-support/drive.ts';
import { realPushPayload, seedWebhook } from '../webhook-support/fixture.ts';
import { emptyQueue, openQueue } from '../webhook-support/queue.ts';

const BASELINE_ENTRY = new URL('./baseline.ts', import.meta.url).pathname;
const MINIMAL_ENTRY = new URL('./minimal-ingest.ts', import.meta.url).pathname;
const MINIMAL_QUEUE = 'bench-minimal-ingest';
/** The gateway's default pool, given to both it and minimal-ingest so they have the same connections. */
const POOL_SIZE = '10';
/**
 * Code-host ingest of a real push: POST /v1/webhooks/{id}/{token}/codehost through a spawned
 * gateway (rate limiter, path checks, body read and validated once, token lookup, one job
 * enqueued with its fresh X-GitHub-Delivery), against a bare express server that only
 * parses the same body. No worker runs: this is the gateway's accept path; the queued jobs are
 * removed afterwards.
 */
export const webhookIngest: Benchmark = {
  name: 'webhook-ingest',
  description: 'POST a real GitHub push to /codehost: gateway (validate, token, enqueue) vs bare express JSON parsing',
  async run(context) {
    const env = await context.serviceEnv();
    const hook = await seedWebhook(env['DATABASE_URL']!);
    const body = realPushPayload();
    // One loopback client would only measure 429s with the real limits (200/min per webhook).
    const gateway = await context.startGateway({ RATE_LIMITS_ENABLED: 'false', DATABASE_POOL_SIZE: POOL_SIZE });
    const register = (name: string, stop: () => Promise<void>) => context.cleanup.defer(name, stop);
    const baseline = await forkHelper('ingest baseline', BASELINE_ENTRY, {}, { NODE_ENV: 'production' }, register);
    const minimalEnv = {
      ...env,
      NODE_ENV: 'production',
      DATABASE_POOL_SIZE: POOL_SIZE,
      MINIMAL_INGEST_QUEUE: MINIMAL_QUEUE,
    };
    const minimal = await forkHelper('minimal-ingest', MINIMAL_ENTRY, {}, minimalEnv, register);
    const path = `/v1/webhooks/${hook.webhookId}/${hook.token}/codehost`;
    const deliveriesTo = (origin: string) => pushDeliveries(`${origin}${path}`, body);
    const steady = withSteadyStateWarmup(context.load);
    context.log(`push payload ${body.length} bytes; measuring the gateway`);
    const gatewayRun = await measurePostsWithCpu(gateway.pid, deliveriesTo(gateway.url), steady);
    const gatewayResult = gatewayRun.measurement;
    const halfRate = gatewayResult.requestsPerSecond / 2;
    context.log(`measuring the gateway at half its maximum, ${Math.round(halfRate)} requests/s`);
    /** Warm-up, then the measured run, of a steady load at half the gateway's maximum. */
    const atHalfRate = async (origin: string) => {
      const paced = pacedPosts(deliveriesTo(origin));
      const options = { requestsPerSecond: halfRate, connections: context.load.connections };
      if (context.load.warmupSeconds > 0)
        await pacedLoad(paced, { ...options, durationSeconds: context.load.warmupSeconds });
      return pacedLoad(paced, { ...options, durationSeconds: context.load.durationSeconds });
    };
    const gatewayHalf = await atHalfRate(gateway.url);
    // The issue's own measure of the half-rate tail: autocannon --overallRate.
    const gatewayHalfBursts = await measurePosts(deliveriesTo(gateway.url), context.load, halfRate);
    context.log('measuring minimal-ingest');
    const minimalRun = await measurePostsWithCpu(minimal.pid, deliveriesTo(minimal.url), steady);
    const minimalResult = minimalRun.measurement;
    // The same offered load on the same-work baseline: how much of the gateway's tail is the durable work's.
    const minimalHalf = await atHalfRate(minimal.url);
    context.log('measuring the baseline');
    const baselineRun = await measurePostsWithCpu(baseline.pid, deliveriesTo(baseline.url), steady);
    const baselineResult = baselineRun.measurement;
    const baselineHalf = await atHalfRate(baseline.url);
    const baselineHalfBursts = await measurePosts(deliveriesTo(baseline.url), context.load, halfRate);
    const cpu = (run: { cpuMsPerRequest: number }) => run.cpuMsPerRequest.toFixed(3);
    for (const name of [undefined, MINIMAL_QUEUE]) {
      const queue = openQueue(env, name);
      await emptyQueue(queue.queue).finally(() => queue.close());
    }
    return {
      benchmark: 'webhook-ingest',
      notes: [
        `real push from @octokit/webhooks-examples, ${body.length} bytes, a fresh X-GitHub-Delivery per request (each one a new dedupe key)`,
        'gateway: RATE_LIMITS_ENABLED=false (explicit), NODE_ENV=production (development on the development S3 store, which production refuses), LOG_LEVEL=silent, GATEWAY_PROCESSES=auto (a process per core, as on a machine serving the gateway alone); no worker running (accept path only)',
        `warm-up before each maximum-rate run: ${steady.warmupSeconds} s, at least ${STEADY_STATE_WARMUP_SECONDS} whatever --warmup says (a fresh process compiles its hot code meanwhile)`,
        'per request the gateway does one BullMQ add (inline, < 64 KiB: the part of the push the worker reads, codeHostReadPart of webhook-formats) and no statement (its webhook from memory while the change feed proves it current); the dedupe key is claimed inside that add (BullMQ deduplication) and stored by the worker with the message (delivery-throughput and delivery-latency pay that)',
        'minimal-ingest: express JSON, one INSERT … ON CONFLICT DO NOTHING of the delivery id and one BullMQ add of the body per request (no validation, auth or lookup); the same pool size as each gateway process',
        `process CPU per request (ms, user + system, measured run): gateway ${cpu(gatewayRun)}, minimal-ingest ${cpu(minimalRun)}, express JSON ${cpu(baselineRun)}`,
        `machine CPU per request (ms, every core, load generator included; of which PostgreSQL and Redis): gateway ${formatMachineCpu(gatewayRun.machine)}, minimal-ingest ${formatMachineCpu(minimalRun.machine)}, express JSON ${formatMachineCpu(baselineRun.machine)}`,
        "half rate: a steady open-loop load at half the gateway's measured maximum (one request due every 1/rate s, latency from when it was due, as wrk2; autocannon's overallRate sends each second's share in a burst), offered to the gateway, then at the same rate to minimal-ingest and to express JSON",
        "half rate, autocannon overallRate (the issue's measure): each connection sends its share of every second as fast as it can, then waits; latency from when each request left, so it is the gentler of the two",
        'gateway, baseline, PostgreSQL, Redis and autocannon share this machine: compare the ratio, not absolute numbers',
      ],
      targets: [
        {
          target: 'gateway /codehost',
          url: `${gateway.url}/v1/webhooks/{id}/{token}/codehost`,
          measurement: gatewayResult,
        },
        {
          target: 'gateway /codehost at half its maximum rate',
          url: `${gateway.url}/v1/webhooks/{id}/{token}/codehost`,
          measurement: gatewayHalf,
        },
        {
          target: 'gateway at half its maximum, autocannon overallRate',
          url: `${gateway.url}/v1/webhooks/{id}/{token}/codehost`,
          measurement: gatewayHalfBursts,
        },
        {
          target: 'minimal-ingest',
          url: `${minimal.url}/v1/webhooks/{id}/{token}/codehost`,
          measurement: minimalResult,
        },
        {
          target: "minimal-ingest at the gateway's half rate",
          url: `${minimal.url}/v1/webhooks/{id}/{token}/codehost`,
          measurement: minimalHalf,
        },
        {
          target: 'express JSON baseline',
          url: `${baseline.url}/v1/webhooks/{id}/{token}/codehost`,
          measurement: baselineResult,
        },
        {
          target: "express JSON at the gateway's half rate",
          url: `${baseline.url}/v1/webhooks/{id}/{token}/codehost`,
          measurement: baselineHalf,
        },
        {
          target: "express JSON at the gateway's half rate, autocannon overallRate",
          url: `${baseline.url}/v1/webhooks/{id}/{token}/codehost`,
          measurement: baselineHalfBursts,
        },
      ],
      ratios: {
        'gateway/minimal-ingest rps': ratio(gatewayResult.requestsPerSecond, minimalResult.requestsPerSecond),
        'gateway/baseline rps': ratio(gatewayResult.requestsPerSecond, baselineResult.requestsPerSecond),
        'gateway/minimal-ingest CPU per request': ratio(gatewayRun.cpuMsPerRequest, minimalRun.cpuMsPerRequest),
        'gateway/baseline machine CPU per request': ratio(gatewayRun.machine.totalMs, baselineRun.machine.totalMs),
        'minimal-ingest/baseline machine CPU per request': ratio(
          minimalRun.machine.totalMs,
          baselineRun.machine.totalMs,
        ),
        'gateway/baseline p99 latency': ratio(gatewayResult.latencyMs.p99, baselineResult.latencyMs.p99),
        'gateway/minimal-ingest p99 at half rate': ratio(gatewayHalf.latencyMs.p99, minimalHalf.latencyMs.p99),
        'gateway/express JSON p99 at half rate, autocannon overallRate': ratio(
          gatewayHalfBursts.latencyMs.p99,
          baselineHalfBursts.latencyMs.p99,
        ),
      },
    };
  },
};
