import type { Request, RequestHandler, Response } from 'express';
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';

import { clusterMetricsText, scrapesThroughPrimary } from './cluster.ts';
import { RequestDurationHistogram } from './request-durations.ts';

export { Counter, Gauge, Histogram, Registry } from 'prom-client';
export { aggregateMetricsForWorkers, shareMetricsWithPrimary } from './cluster.ts';

/** One process's registry: Node's own metrics, and every metric labelled with the service. */
export function createMetricsRegistry(service: string): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  return registry;
}

/** Latency buckets (seconds) from a cached read to a request waiting on a stalled dependency. */
const HTTP_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * Times every answer by method, route template and status. `routeOf` names the template
 * (`/v1/webhooks/:webhook_id/:token`); an unmatched request is one label, not one per path.
 */
export function httpRequestMetrics(registry: Registry, routeOf: (req: Request) => string): RequestHandler {
  const duration = new RequestDurationHistogram(
    'http_request_duration_seconds',
    'HTTP answers by method, route template and status.',
    HTTP_BUCKETS,
  ).register(registry);
  return (req, res, next) => {
    const started = performance.now();
    res.once('finish', () =>
      duration.observe(req.method, routeOf(req), res.statusCode, (performance.now() - started) / 1000),
    );
    next();
  };
}

/**
 * How long a scrape waits for the queue counts: well under Prometheus's scrape timeout (10 s
 * by default), so a Redis that is away (a queue client waiting for its connection never
 * answers) costs this series, not the whole scrape.
 */
const QUEUE_COUNT_TIMEOUT_MS = 2_000;

/** The counts, or none when they fail or take longer than `timeoutMs`. */
async function countsWithin(
  count: Promise<Record<string, number>>,
  timeoutMs: number,
): Promise<Record<string, number>> {
  let timer: NodeJS.Timeout | undefined;
  const none = new Promise<Record<string, number>>((resolve) => (timer = setTimeout(() => resolve({}), timeoutMs)));
  try {
    return await Promise.race([count.catch(() => ({})), none]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `queue_jobs{queue, state}`: each queue's jobs by state (waiting, active, delayed, failed,
 * completed), asked of `countJobs` when Prometheus scrapes. A queue whose counts cannot be read
 * in time (Redis away) reports no series rather than its last numbers, which would look current.
 */
export function queueJobsGauge<Queue extends string>(
  registry: Registry,
  queues: readonly Queue[],
  countJobs: (queue: Queue) => Promise<Record<string, number>>,
  timeoutMs = QUEUE_COUNT_TIMEOUT_MS,
): void {
  new Gauge({
    name: 'queue_jobs',
    help: 'Jobs by queue and state, read from Redis when scraped.',
    labelNames: ['queue', 'state'] as const,
    registers: [registry],
    // Every process of a cluster reads the same Redis: their counts are one count, not a sum.
    aggregator: 'first',
    async collect() {
      const counts = await Promise.all(queues.map((queue) => countsWithin(countJobs(queue), timeoutMs)));
      this.reset();
      queues.forEach((queue, i) => {
        for (const [state, count] of Object.entries(counts[i]!)) this.set({ queue, state }, count);
      });
    },
  });
}

/** The text a Prometheus scrape reads: this process's, or every process's of its cluster. */
export async function metricsText(registry: Registry): Promise<{ contentType: string; body: string }> {
  const body = scrapesThroughPrimary() ? await clusterMetricsText() : await registry.metrics();
  return { contentType: registry.contentType, body };
}

/** An express handler for `GET /metrics`. */
export function serveMetrics(registry: Registry): RequestHandler {
  return async (_req, res: Response) => {
    res.setHeader('Cache-Control', 'no-store');
    try {
      const { contentType, body } = await metricsText(registry);
      res.setHeader('Content-Type', contentType).send(body);
    } catch (error) {
      // Only a cluster's scrape fails (the primary did not answer): Prometheus records the 503.
      res
        .status(503)
        .type('text/plain')
        .send(`${(error as Error).message}\n`);
    }
  };
}
