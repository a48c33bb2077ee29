import { metricValue, scrapeMetrics } from '@switchboard/testkit/metrics';
import { ratio, withSteadyStateWarmup, type Measurement } from '../../measure.ts';
import { forkHelper } from '../../processes.ts';
import type { Benchmark, LoadOptions, TargetResult } from '../../types.ts';
import { measurePosts, pushDeliveries } from '../webhook-support/drive.ts';
import { realPushPayload, seedWebhook } from '../webhook-support/fixture.ts';
import { emptyQueue, openQueue } from '../webhook-support/queue.ts';

const BASELINE_ENTRY = new URL('../webhook-ingest/baseline.ts', import.meta.url).pathname;
/**
 * Eight half-minute windows: four minutes, past two of V8's memory-reducer watchdog GCs, after
 * which a gateway process without --no-memory-reducer fell into several mark-compacts a second
 * (packages/bench/README.md#memory-and-garbage-collection).
 */
const WINDOWS = 8;
const WINDOW_SECONDS = 30;
const BASELINE_WINDOWS = 2;

/** Full GCs the gateway's processes took so far (`nodejs_gc_duration_seconds`, merged by the primary). */
async function majorGcs(gatewayUrl: string): Promise<number> {
  const { samples } = await scrapeMetrics(`${gatewayUrl}/metrics`);
  return metricValue(samples, 'nodejs_gc_duration_seconds_count', { kind: 'major' }) ?? 0;
}

/**
 * The half-rate tail over minutes rather than seconds: the gateway's maximum for a real push to
 * /codehost, then half of it by autocannon `--overallRate` for WINDOWS windows in a row (the
 * queue emptied between them, a few seconds' pause), each window's p99 and the full GCs the
 * gateway took meanwhile; express JSON at the same rate for BASELINE_WINDOWS windows.
 */
export const webhookIngestSustained: Benchmark = {
  name: 'webhook-ingest-sustained',
  description:
    "half the gateway's maximum of real pushes to /codehost for 4 minutes (autocannon overallRate): p99 and full GCs per 30 s window, vs express JSON",
  async run(context) {
    const env = await context.serviceEnv();
    const hook = await seedWebhook(env['DATABASE_URL']!);
    const body = realPushPayload();
    const gateway = await context.startGateway({ RATE_LIMITS_ENABLED: 'false', DATABASE_POOL_SIZE: '10' });
    const baseline = await forkHelper('ingest baseline', BASELINE_ENTRY, {}, { NODE_ENV: 'production' }, (name, stop) =>
      context.cleanup.defer(name, stop),
    );
    const path = `/v1/webhooks/${hook.webhookId}/${hook.token}/codehost`;
    const queue = openQueue(env);
    context.cleanup.defer('bench queue', () => queue.close());

    const gatewayLoad = pushDeliveries(`${gateway.url}${path}`, body);
    const baselineLoad = pushDeliveries(`${baseline.url}${path}`, body);
    const maximum = await measurePosts(gatewayLoad, withSteadyStateWarmup(context.load));
    await emptyQueue(queue.queue);
    const halfRate = maximum.requestsPerSecond / 2;
    const window: LoadOptions = { ...context.load, warmupSeconds: 0, durationSeconds: WINDOW_SECONDS };
    context.log(
      `gateway maximum ${Math.round(maximum.requestsPerSecond)}/s; ${WINDOWS} windows of ${WINDOW_SECONDS} s at ${Math.round(halfRate)}/s`,
    );

    const gatewayWindows: Array<{ measurement: Measurement; majorGcs: number }> = [];
    // One reading per window boundary: a GC while the queue empties counts in the next window.
    let gcsSoFar = await majorGcs(gateway.url);
    for (let index = 0; index < WINDOWS; index += 1) {
      const measurement = await measurePosts(gatewayLoad, window, halfRate);
      const gcs = await majorGcs(gateway.url);
      gatewayWindows.push({ measurement, majorGcs: gcs - gcsSoFar });
      context.log(`window ${index + 1}: p99 ${measurement.latencyMs.p99} ms, ${gcs - gcsSoFar} full GCs`);
      gcsSoFar = gcs;
      await emptyQueue(queue.queue);
    }
    // The baseline's first window has the run's warm-up before it.
    const baselineWindows: Measurement[] = [
      await measurePosts(baselineLoad, { ...window, warmupSeconds: context.load.warmupSeconds }, halfRate),
    ];
    while (baselineWindows.length < BASELINE_WINDOWS)
      baselineWindows.push(await measurePosts(baselineLoad, window, halfRate));

    const p99s = gatewayWindows.map((entry) => entry.measurement.latencyMs.p99);
    const worstBaseline = Math.max(...baselineWindows.map((measurement) => measurement.latencyMs.p99));
    const targets: TargetResult[] = [
      {
        target: 'gateway /codehost, maximum',
        url: `${gateway.url}/v1/webhooks/{id}/{token}/codehost`,
        measurement: maximum,
      },
      ...gatewayWindows.map((entry, index) => ({
        target: `gateway at half its maximum, window ${index + 1} (${index * WINDOW_SECONDS}-${(index + 1) * WINDOW_SECONDS} s)`,
        url: `${gateway.url}/v1/webhooks/{id}/{token}/codehost`,
        measurement: entry.measurement,
      })),
      ...baselineWindows.map((measurement, index) => ({
        target: `express JSON at the gateway's half rate, window ${index + 1}`,
        url: `${baseline.url}/v1/webhooks/{id}/{token}/codehost`,
        measurement,
      })),
    ];
    return {
      benchmark: 'webhook-ingest-sustained',
      notes: [
        `real push, ${body.length} bytes, a fresh X-GitHub-Delivery per request; gateway GATEWAY_PROCESSES=auto, RATE_LIMITS_ENABLED=false, started with the service node flags (SERVICE_NODE_FLAGS)`,
        `autocannon overallRate ${Math.round(halfRate)}/s (each connection sends its share of every second as fast as it can, then waits), ${WINDOWS} windows of ${WINDOW_SECONDS} s, the queue emptied between them`,
        `full GCs (mark-compacts) of the gateway's processes per window: ${gatewayWindows.map((entry) => entry.majorGcs).join(', ')}`,
        'gateway, baseline, PostgreSQL, Redis and autocannon share this machine: compare the windows with each other and the ratios, not absolute numbers',
      ],
      targets,
      ratios: {
        'gateway p99, worst window/first window': ratio(Math.max(...p99s), p99s[0]!),
        'gateway p99, median window/express JSON worst window': ratio(
          [...p99s].sort((a, b) => a - b)[Math.floor(p99s.length / 2)]!,
          worstBaseline,
        ),
      },
    };
  },
};
