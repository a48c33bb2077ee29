import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

/** A process of a cluster asks its primary for every process's metrics, and gets them back. */
const SCRAPE_REQUEST = 'switchboard:metrics-scrape';
const SCRAPE_ANSWER = 'switchboard:metrics-answer';

interface ScrapeRequest {
  type: typeof SCRAPE_REQUEST;
  id: number;
}

interface ScrapeAnswer {
  type: typeof SCRAPE_ANSWER;
  id: number;
  body?: string;
  error?: string;
}

/**
 * How long a scrape waits for the primary: a process that stopped answering (prom-client gives
 * each 5 s) must not hold the scrape past Prometheus's own timeout (10 s by default).
 */
const SCRAPE_TIMEOUT_MS = 8_000;

const pending = new Map<number, (answer: ScrapeAnswer) => void>();
let nextScrapeId = 0;

/**
 * In a process of a cluster (node:cluster): `registry` answers the primary's collection, and
 * metricsText asks the primary, so a scrape that reaches any process reads all of them (they
 * share one port, and Prometheus cannot tell which one it reached).
 */
export function shareMetricsWithPrimary(registry: Registry): void {
  if (!cluster.isWorker) return;
  AggregatorRegistry.setRegistries([registry]);
  // Constructing one is what makes prom-client answer the primary's collection in this process.
  new AggregatorRegistry();
  process.on('message', (message: ScrapeAnswer) => {
    if (message?.type !== SCRAPE_ANSWER) return;
    pending.get(message.id)?.(message);
    pending.delete(message.id);
  });
}

/** Every process's metrics, merged by the primary (counters and histograms summed; see each gauge's aggregator). */
export function clusterMetricsText(): Promise<string> {
  const id = nextScrapeId++;
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(new Error('the primary did not answer the metrics scrape'));
    }, SCRAPE_TIMEOUT_MS);
    pending.set(id, (answer) => {
      clearTimeout(timer);
      if (answer.body === undefined) reject(new Error(answer.error ?? 'metrics scrape failed'));
      else resolve(answer.body);
    });
    process.send?.({ type: SCRAPE_REQUEST, id } satisfies ScrapeRequest);
  });
}

/** Whether this process's scrape must go through a primary (it is one process of a cluster). */
export function scrapesThroughPrimary(): boolean {
  return cluster.isWorker && process.connected;
}

/** In the primary: answers its processes' scrape requests with every process's metrics merged. */
export function aggregateMetricsForWorkers(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker: Worker, message: ScrapeRequest) => {
    if (message?.type !== SCRAPE_REQUEST) return;
    const answer = (fields: Pick<ScrapeAnswer, 'body' | 'error'>) => {
      if (worker.isConnected()) worker.send({ type: SCRAPE_ANSWER, id: message.id, ...fields } satisfies ScrapeAnswer);
    };
    aggregator.clusterMetrics().then(
      (body) => answer({ body }),
      (error: Error) => answer({ error: error.message }),
    );
  });
}
