import type { QueueName } from '@switchboard/contracts';
import { Counter, createMetricsRegistry, Histogram, queueJobsGauge, type Registry } from '@switchboard/metrics';
import { createProducer, type JobObserver } from '@switchboard/queue';
import { exportConnectionMetrics } from './connection-metrics.ts';
import type { Resources } from './resources.ts';

/** Seconds one attempt may take: a webhook delivery in milliseconds to a large archive in tens of minutes. */
const JOB_DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 1800];
/** Attempts a job took; contracts allow up to about ten. */
const JOB_ATTEMPT_BUCKETS = [1, 2, 3, 4, 5, 6, 8, 10];

export interface WorkerMetrics {
  registry: Registry;
  observer: JobObserver;
  close(): Promise<void>;
}

/**
 * What this process's handlers did, per queue and job name (`job_name`: Prometheus keeps `job`
 * for the scrape job). Durations per attempt; attempts, completions and failures per job as it
 * leaves the active state, so every worker kind gets them from the runtime alone.
 */
function jobObserver(registry: Registry, queue: QueueName): JobObserver {
  const duration = new Histogram({
    name: 'worker_job_duration_seconds',
    help: 'Time one attempt of a job ran in this process, by outcome of the attempt.',
    labelNames: ['queue', 'job_name', 'outcome'] as const,
    buckets: JOB_DURATION_BUCKETS,
    registers: [registry],
  });
  const attempts = new Histogram({
    name: 'worker_job_attempts',
    help: 'Attempts a job had made when it completed or failed for good.',
    labelNames: ['queue', 'job_name', 'outcome'] as const,
    buckets: JOB_ATTEMPT_BUCKETS,
    registers: [registry],
  });
  const completed = new Counter({
    name: 'worker_jobs_completed_total',
    help: 'Jobs this process completed.',
    labelNames: ['queue', 'job_name'] as const,
    registers: [registry],
  });
  const failed = new Counter({
    name: 'worker_jobs_failed_total',
    help: 'Failed attempts in this process; final="true" when the job failed for good, "false" when it will be retried.',
    labelNames: ['queue', 'job_name', 'final'] as const,
    registers: [registry],
  });
  return {
    attemptEnded: (jobName, outcome, seconds) => duration.observe({ queue, job_name: jobName, outcome }, seconds),
    jobSettled: (jobName, outcome, attemptsMade) => {
      if (outcome === 'completed') completed.inc({ queue, job_name: jobName });
      else failed.inc({ queue, job_name: jobName, final: String(outcome === 'failed') });
      if (outcome !== 'retrying') attempts.observe({ queue, job_name: jobName, outcome }, attemptsMade);
    },
  };
}

/**
 * The worker's registry: process metrics, its queue's jobs by state (read from Redis when
 * scraped), and what its handlers did.
 */
export function workerMetrics(
  name: string,
  queue: QueueName,
  redis: Resources['redis'],
  redisPrefix: string,
): WorkerMetrics {
  const registry = createMetricsRegistry(name);
  const producer = createProducer({ connection: redis, redisPrefix });
  queueJobsGauge(registry, [queue], () => producer.jobCounts(queue));
  exportConnectionMetrics(registry);
  return { registry, observer: jobObserver(registry, queue), close: () => producer.close() };
}
