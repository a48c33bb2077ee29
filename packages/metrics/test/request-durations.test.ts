import { AggregatorRegistry, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RequestDurationHistogram } from '../src/request-durations.ts';

const NAME = 'http_request_duration_seconds';
const HELP = 'HTTP answers by method, route template and status.';
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

interface Observation {
  method: string;
  route: string;
  status: number;
  seconds: number;
}

/** Below the first bound, on bounds (a bound is its own bucket's), between, past the last. */
const OBSERVATIONS: Observation[] = [
  { method: 'GET', route: '/healthz', status: 200, seconds: 0.0004 },
  { method: 'GET', route: '/healthz', status: 200, seconds: 0.001 },
  { method: 'GET', route: '/healthz', status: 200, seconds: 0.0026 },
  { method: 'POST', route: '/v1/webhooks/:webhook_id/:token', status: 204, seconds: 0.05 },
  { method: 'POST', route: '/v1/webhooks/:webhook_id/:token', status: 204, seconds: 0.3 },
  { method: 'POST', route: '/v1/webhooks/:webhook_id/:token', status: 400, seconds: 12 },
  { method: 'GET', route: '(unmatched)', status: 404, seconds: 10 },
];

/** A registry's metrics as JSON, each value as name, labels and number (prom-client adds empty exemplars). */
async function samplesOf(registry: Pick<Registry, 'getMetricsAsJSON'>) {
  return (await registry.getMetricsAsJSON()).map(({ values, ...metric }) => ({
    ...metric,
    values: values.map(({ metricName, labels, value }: { metricName?: string; labels: object; value: number }) => ({
      metricName,
      labels,
      value,
    })),
  }));
}

/** The same observations in a registry with prom-client's own Histogram and in one with ours. */
function bothRegistries(observations: readonly Observation[]): {
  theirs: Registry;
  ours: Registry;
  histogram: RequestDurationHistogram;
} {
  const theirs = new Registry();
  const ours = new Registry();
  for (const registry of [theirs, ours]) registry.setDefaultLabels({ service: 'gateway' });
  const reference = new Histogram({
    name: NAME,
    help: HELP,
    labelNames: ['method', 'route', 'status'],
    buckets: BUCKETS,
    registers: [theirs],
  });
  const histogram = new RequestDurationHistogram(NAME, HELP, BUCKETS).register(ours);
  for (const { method, route, status, seconds } of observations) {
    reference.observe({ method, route, status: String(status) }, seconds);
    histogram.observe(method, route, status, seconds);
  }
  return { theirs, ours, histogram };
}

describe('RequestDurationHistogram', () => {
  it('exposes exactly what prom-client’s Histogram exposes for the same observations', async () => {
    const { theirs, ours } = bothRegistries(OBSERVATIONS);
    expect(await samplesOf(ours)).toEqual(await samplesOf(theirs));
    // The text holds the same samples; only the order of labels within one differs (meaningless to Prometheus).
    const text = await ours.metrics();
    expect(text).toContain(`# TYPE ${NAME} histogram`);
    expect(text).toContain(`${NAME}_bucket{le="0.001",method="GET",route="/healthz",status="200",service="gateway"} 2`);
    expect(text).toContain(
      `${NAME}_bucket{le="+Inf",method="POST",route="/v1/webhooks/:webhook_id/:token",status="400",service="gateway"} 1`,
    );
    expect(text).toContain(`${NAME}_count{method="GET",route="(unmatched)",status="404",service="gateway"} 1`);
  });

  it('sums across a cluster’s processes as prom-client’s Histogram does', async () => {
    // Alternate observations to each process, so every series has parts in both.
    const [first, second] = [0, 1].map((parity) =>
      bothRegistries(OBSERVATIONS.filter((_, index) => index % 2 === parity)),
    ) as [ReturnType<typeof bothRegistries>, ReturnType<typeof bothRegistries>];
    const merged = (registries: Registry[]) =>
      Promise.all(registries.map((registry) => registry.getMetricsAsJSON())).then((all) =>
        AggregatorRegistry.aggregate(all),
      );
    const ours = await merged([first.ours, second.ours]);
    expect(await samplesOf(ours)).toEqual(await samplesOf(await merged([first.theirs, second.theirs])));
    expect(await ours.metrics()).toContain(
      `${NAME}_count{method="GET",route="/healthz",status="200",service="gateway"} 3`,
    );
  });

  it('forgets every series on reset', async () => {
    const { ours, histogram } = bothRegistries(OBSERVATIONS);
    ours.resetMetrics();
    expect(await ours.metrics()).not.toContain(`${NAME}_count`);
    histogram.observe('GET', '/healthz', 200, 0.002);
    expect(await ours.metrics()).toContain(
      `${NAME}_count{method="GET",route="/healthz",status="200",service="gateway"} 1`,
    );
  });
});
