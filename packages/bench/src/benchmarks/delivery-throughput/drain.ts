import type { Queue } from 'bullmq';
import { setTimeout as sleep } from 'node:timers/promises';
import { latencySummary, type Measurement } from '../../measure.ts';

const POLL_MS = 20;

/**
 * Resumes the paused queue and measures how long `done()` takes to become true (polled every
 * 20 ms, so runs should last seconds). Answers the elapsed milliseconds.
 */
export async function timeDrain(queue: Queue, done: () => Promise<boolean>, timeoutMs: number): Promise<number> {
  const started = performance.now();
  await queue.resume();
  while (!(await done())) {
    if (performance.now() - started > timeoutMs)
      throw new Error(`queue ${queue.name} not drained within ${timeoutMs} ms`);
    await sleep(POLL_MS);
  }
  return performance.now() - started;
}

/**
 * A throughput run as a Measurement: jobs a second over the whole drain, and the processing
 * time of each job (processedOn → finishedOn) over the completed jobs BullMQ still keeps.
 */
export async function drainMeasurement(queue: Queue, jobs: number, elapsedMs: number): Promise<Measurement> {
  const completed = await queue.getJobs(['completed'], 0, 999);
  const times = completed.map((job) => (job.finishedOn ?? 0) - (job.processedOn ?? 0)).filter((ms) => ms >= 0);
  const failed = await queue.getFailedCount();
  return {
    requestsPerSecond: jobs / (elapsedMs / 1000),
    latencyMs: latencySummary(times),
    requests: jobs,
    non2xx: failed,
    statusCodes: failed > 0 ? { failed } : {},
    errors: 0,
    timeouts: 0,
    bytesPerSecond: 0,
    durationSeconds: elapsedMs / 1000,
  };
}
