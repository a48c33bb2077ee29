import type { Metric, MetricObjectWithValues, MetricType, MetricValueWithName, Registry } from 'prom-client';

type RequestLabel = 'method' | 'route' | 'status';

/** One label set's observations: per bucket (not yet cumulative), then sum and count. */
interface Series {
  labels: Record<RequestLabel, string>;
  perBucket: Float64Array;
  sum: number;
  count: number;
}

/**
 * A Prometheus histogram of request durations by method, route and status, with the same
 * exposition as prom-client's Histogram (the `_bucket` series with `le`, `+Inf`, `_sum`,
 * `_count`; summed across a cluster's processes), recorded for a fraction of its cost.
 * prom-client's `startTimer` and `observe` check and hash the label object on every call, a
 * real share of a small request's CPU, where this one is a map lookup on a string key
 * (packages/bench/README.md#http-path).
 *
 * It registers itself with prom-client's Registry, which only ever reads a metric's `name`,
 * `get()` and `reset()`; the Registry's types list prom-client's own classes only, hence the
 * cast in `register`.
 */
export class RequestDurationHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  readonly name: string;
  readonly help: string;
  /** Upper bounds in seconds, ascending; `+Inf` is implied. */
  readonly #bounds: readonly number[];
  readonly #series = new Map<string, Series>();

  constructor(name: string, help: string, bounds: readonly number[]) {
    this.name = name;
    this.help = help;
    this.#bounds = bounds;
  }

  register(registry: Registry): this {
    registry.registerMetric(this as unknown as Metric);
    return this;
  }

  observe(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let series = this.#series.get(key);
    if (series === undefined) {
      series = {
        labels: { method, route, status: String(status) },
        perBucket: new Float64Array(this.#bounds.length),
        sum: 0,
        count: 0,
      };
      this.#series.set(key, series);
    }
    const bucket = this.#bounds.findIndex((bound) => seconds <= bound);
    if (bucket !== -1) series.perBucket[bucket]! += 1;
    series.sum += seconds;
    series.count += 1;
  }

  /** What prom-client's Histogram `get()` answers, value for value. */
  async get(): Promise<Omit<MetricObjectWithValues<MetricValueWithName<string>>, 'collect'>> {
    const values: MetricValueWithName<string>[] = [];
    for (const { labels, perBucket, sum, count } of this.#series.values()) {
      let cumulative = 0;
      this.#bounds.forEach((le, index) => {
        cumulative += perBucket[index]!;
        values.push({ metricName: `${this.name}_bucket`, labels: { le, ...labels }, value: cumulative });
      });
      values.push({ metricName: `${this.name}_bucket`, labels: { le: '+Inf', ...labels }, value: count });
      values.push({ metricName: `${this.name}_sum`, labels: { ...labels }, value: sum });
      values.push({ metricName: `${this.name}_count`, labels: { ...labels }, value: count });
    }
    // prom-client's typings say an enum; its runtime (and the exposition's `# TYPE`) reads the name.
    const type = this.type as unknown as MetricType;
    return { name: this.name, help: this.help, type, values, aggregator: this.aggregator };
  }

  reset(): void {
    this.#series.clear();
  }
}
