import { networkInterfaces } from 'node:os';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { metricValue, scrapeMetrics } from '@switchboard/testkit/metrics';
import { ServiceExitError, spawnService, type ServiceProcess } from '@switchboard/testkit/processes';
import { startFaultProxy } from '@switchboard/testkit/fault-proxy';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { waitFor } from '@switchboard/testkit/wait';
import { startWorker, type RunningWorker } from '@switchboard/queue';
import { workerIdLeaseKey } from '@switchboard/snowflake';

import { completionsKey, countedHandler, countedJob, startsKey } from './fixtures/jobs.ts';
// The queue package's test helpers: an isolated queue per test on the file's Redis.
import { isolatedQueue, jobState, silentLogger, useFileRedis } from '../../queue/test/helpers.ts';

const environment = useTestEnvironment();
const FIXTURE = fileURLToPath(new URL('./fixtures/counted-worker.ts', import.meta.url));
/** Short lock timings, so a dead worker's job is recovered within about two seconds. */
const FAST_TIMINGS = { QUEUE_LOCK_DURATION_MS: '1000', QUEUE_STALLED_INTERVAL_MS: '500' };

const redis = useFileRedis(environment, 'process-test');

/** The fixture process, once it takes jobs (runWorkerService announces it). */
function spawnWorker(redisPrefix: string, extra: Record<string, string> = {}): Promise<ServiceProcess> {
  return spawnService(
    FIXTURE,
    environment.processEnv({ REDIS_PREFIX: redisPrefix, WORKER_CONCURRENCY: '1', ...extra }),
  );
}

/** Everything one test needs: its own prefix, a producer, a raw queue view and the run counters. */
function setUp() {
  const { redisPrefix, producer, queue, close } = isolatedQueue(redis(), environment.redisPrefix, countedJob.queue);
  const counts = async (key: string) => ({
    starts: Number(await redis().get(startsKey(redisPrefix, key))),
    completions: Number(await redis().get(completionsKey(redisPrefix, key))),
  });
  const startedOnce = (key: string) => waitFor(async () => (await counts(key)).starts === 1, 10_000);
  const tearDown = async (...processes: ServiceProcess[]) => {
    await Promise.all(processes.map((running) => running.stop('SIGKILL')));
    await close();
  };
  return { redisPrefix, producer, queue, counts, startedOnce, tearDown };
}

describe('worker processes', () => {
  it('recovers the job of a SIGKILLed worker and completes it exactly once', async () => {
    const { redisPrefix, producer, queue, counts, startedOnce, tearDown } = setUp();
    const crashing = await spawnWorker(redisPrefix, FAST_TIMINGS);
    let successor: RunningWorker | undefined;
    try {
      const { jobId } = await producer.enqueue(countedJob, { key: 'crash', hangOnFirstRun: true });
      await startedOnce('crash');
      expect(await jobState(queue, jobId)).toBe('active');
      expect((await crashing.stop('SIGKILL')).signal).toBe('SIGKILL');

      successor = await startWorker({
        queue: countedJob.queue,
        contracts: [countedJob],
        handlers: { 'test-counted': countedHandler(redis(), redisPrefix) },
        connection: environment.redisUrl,
        redisPrefix,
        timings: { lockDurationMs: 1000, stalledIntervalMs: 500 },
        logger: silentLogger,
      });
      await waitFor(async () => (await jobState(queue, jobId)) === 'completed', 8000);
      // One more stalled-check period: nothing may run it again.
      await new Promise((resolve) => setTimeout(resolve, 600));
      expect(await counts('crash')).toEqual({ starts: 2, completions: 1 });
      const job = await queue.getJob(jobId);
      expect(job?.returnvalue).toEqual({ starts: 2 });
      expect(job?.stalledCounter).toBe(1);
    } finally {
      await successor?.close(1000);
      await tearDown(crashing);
    }
  });

  it('finishes the active job on SIGTERM and exits 0', async () => {
    const { redisPrefix, producer, queue, counts, startedOnce, tearDown } = setUp();
    const worker = await spawnWorker(redisPrefix, { WORKER_SHUTDOWN_TIMEOUT_MS: '5000' });
    try {
      const { jobId } = await producer.enqueue(countedJob, { key: 'term', workMs: 500 });
      await startedOnce('term');
      expect(await worker.stop(), worker.stderr()).toMatchObject({ code: 0 });
      expect(await counts('term')).toEqual({ starts: 1, completions: 1 });
      expect(await jobState(queue, jobId)).toBe('completed');
    } finally {
      await tearDown(worker);
    }
  });

  it('releases a job that outlives the shutdown timeout and still exits 0', async () => {
    const { redisPrefix, producer, queue, counts, startedOnce, tearDown } = setUp();
    const worker = await spawnWorker(redisPrefix, { WORKER_SHUTDOWN_TIMEOUT_MS: '400' });
    try {
      const { jobId } = await producer.enqueue(countedJob, { key: 'slow', hangOnFirstRun: true });
      await startedOnce('slow');
      const signalled = Date.now();
      expect(await worker.stop(), worker.stderr()).toMatchObject({ code: 0 });
      // The job hangs for good; exiting at all shows the 400 ms bound held (slack for a busy machine).
      expect(Date.now() - signalled).toBeLessThan(400 + 4_000);
      expect(await jobState(queue, jobId)).toBe('waiting');
      expect(await counts('slow')).toEqual({ starts: 1, completions: 0 });
    } finally {
      await tearDown(worker);
    }
  });

  it('serves /healthz and /readyz on its announced health port, and says so while it drains', async () => {
    const { redisPrefix, producer, counts, startedOnce, tearDown } = setUp();
    const worker = await spawnWorker(redisPrefix);
    try {
      const port = worker.ready['healthPort'];
      expect(port).toEqual(expect.any(Number));
      const base = `http://127.0.0.1:${String(port)}`;
      const live = await fetch(`${base}/healthz`);
      expect([live.status, await live.json()]).toEqual([200, { status: 'ok' }]);
      const ready = await fetch(`${base}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({
        status: 'ok',
        checks: { postgres: 'ok', redis: 'ok', s3: 'ok', snowflake: 'ok' },
      });
      expect((await fetch(`${base}/metrics-or-anything`)).status).toBe(404);
      const metrics = await (await fetch(`${base}/metrics`)).text();
      const waiting = metrics
        .split('\n')
        .find((line) => line.startsWith('queue_jobs{') && line.includes('state="waiting"'));
      expect(waiting).toMatch(/service="counted-worker"/);
      expect(waiting).toMatch(/ \d+$/);
      expect(metrics).toContain('nodejs_eventloop_lag_seconds');

      // A job that hangs keeps the worker draining after SIGTERM, long enough to ask.
      await producer.enqueue(countedJob, { key: 'drain', hangOnFirstRun: true });
      await startedOnce('drain');
      worker.child.kill('SIGTERM');
      const draining = await waitFor(async () => {
        const answer = await fetch(`${base}/readyz`).catch(() => undefined);
        return answer?.status === 503 && answer;
      });
      expect(draining.headers.get('retry-after')).toBe('5');
      expect(await draining.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 'draining' });
      expect(await counts('drain')).toMatchObject({ starts: 1 });
    } finally {
      await tearDown(worker);
    }
  });

  it('binds its health port to loopback unless HEALTH_HOST names another address', async () => {
    // An address of this machine that is not loopback: what another host on the network would dial.
    const external = Object.values(networkInterfaces())
      .flat()
      .find((entry) => entry !== undefined && entry.family === 'IPv4' && !entry.internal)?.address;
    expect(external, 'this test needs a non-loopback IPv4 interface').toBeDefined();
    const { redisPrefix, tearDown } = setUp();
    const [loopback, open] = await Promise.all([
      spawnWorker(redisPrefix),
      spawnWorker(redisPrefix, { HEALTH_HOST: '0.0.0.0' }),
    ]);
    try {
      const status = (host: string, worker: ServiceProcess) =>
        fetch(`http://${host}:${String(worker.ready['healthPort'])}/metrics`).then(
          (answer) => answer.status,
          () => 'refused',
        );
      expect(await status('127.0.0.1', loopback)).toBe(200);
      expect(await status(external!, loopback)).toBe('refused');
      expect(await status(external!, open)).toBe(200);
    } finally {
      await tearDown(loopback, open);
    }
  });

  it('exports per queue and job name the duration of each attempt, attempts, completions and failures', async () => {
    const { redisPrefix, producer, queue, tearDown } = setUp();
    const worker = await spawnWorker(redisPrefix);
    try {
      const done = await producer.enqueue(countedJob, { key: 'measured', workMs: 50 });
      const failed = await producer.enqueue(countedJob, { key: 'measured-fail', fail: true });
      await waitFor(
        async () =>
          (await jobState(queue, done.jobId)) === 'completed' && (await jobState(queue, failed.jobId)) === 'failed',
        10_000,
      );
      const metrics = `http://127.0.0.1:${String(worker.ready['healthPort'])}/metrics`;
      const job = { queue: countedJob.queue, job_name: 'test-counted' };
      // The failed event reaches the counters just after the state moved: poll the scrape.
      const { samples } = await waitFor(async () => {
        const scrape = await scrapeMetrics(metrics);
        return metricValue(scrape.samples, 'worker_jobs_failed_total', { ...job, final: 'true' }) === 1 && scrape;
      });
      expect(metricValue(samples, 'worker_jobs_completed_total', job)).toBe(1);
      expect(metricValue(samples, 'worker_jobs_failed_total', { ...job, final: 'false' })).toBeUndefined();
      expect(metricValue(samples, 'worker_job_duration_seconds_count', { ...job, outcome: 'completed' })).toBe(1);
      // workMs 50: the attempt took at least that, and not minutes.
      const seconds = metricValue(samples, 'worker_job_duration_seconds_sum', { ...job, outcome: 'completed' })!;
      expect(seconds).toBeGreaterThanOrEqual(0.05);
      expect(seconds).toBeLessThan(60);
      expect(metricValue(samples, 'worker_job_duration_seconds_count', { ...job, outcome: 'failed' })).toBe(1);
      expect(metricValue(samples, 'worker_job_attempts_sum', { ...job, outcome: 'completed' })).toBe(1);
      expect(metricValue(samples, 'worker_job_attempts_count', { ...job, outcome: 'failed' })).toBe(1);
      expect(metricValue(samples, 'worker_job_attempts_bucket', { ...job, outcome: 'completed', le: '1' })).toBe(1);
      // The queue's states, failed among them, from Redis at scrape time.
      for (const state of ['waiting', 'active', 'delayed', 'failed']) {
        expect(metricValue(samples, 'queue_jobs', { queue: countedJob.queue, state }), state).toEqual(
          expect.any(Number),
        );
      }
      expect(metricValue(samples, 'queue_jobs', { queue: countedJob.queue, state: 'failed' })).toBe(1);
    } finally {
      await tearDown(worker);
    }
  });

  it('leases its snowflake worker id before it takes jobs and releases it on SIGTERM', async () => {
    const { redisPrefix, tearDown } = setUp();
    const worker = await spawnWorker(redisPrefix, { SNOWFLAKE_WORKER_ID: '77' });
    try {
      expect(await redis().get(workerIdLeaseKey(redisPrefix, 77))).toMatch(/^[0-9a-f]{32}$/);
      expect(await worker.stop(), worker.stderr()).toMatchObject({ code: 0 });
      expect(await redis().exists(workerIdLeaseKey(redisPrefix, 77))).toBe(0);
    } finally {
      await tearDown(worker);
    }
  });

  it('warns when it was started without the service node flags, and only then', async () => {
    const { redisPrefix, tearDown } = setUp();
    const env = environment.processEnv({ REDIS_PREFIX: redisPrefix, LOG_LEVEL: 'warn' });
    const bare = await spawnService(FIXTURE, env, { nodeFlags: [] });
    const flagged = await spawnService(FIXTURE, env);
    try {
      expect(bare.output()).toContain(`started without --no-memory-reducer`);
      expect(flagged.output()).not.toContain('started without');
    } finally {
      await tearDown(bare, flagged);
    }
  });

  it('started while Redis does not answer, waits for it and takes jobs once it does', async () => {
    const { redisPrefix, producer, queue, tearDown } = setUp();
    const target = new URL(environment.redisUrl);
    // Every connection refused, as while Redis is stopped or a restart is under way.
    const proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port) }, 'cut');
    const starting = spawnService(
      FIXTURE,
      environment.processEnv({ REDIS_PREFIX: redisPrefix, REDIS_URL: proxy.urlFor(environment.redisUrl) }),
    );
    let worker: ServiceProcess | undefined;
    try {
      // Longer than the process's start-up and the lease's own wait for Redis (5 s) together:
      // the process must not give up.
      await new Promise((resolve) => setTimeout(resolve, 10_000));
      proxy.setMode('pass');
      worker = await starting;
      const { jobId } = await producer.enqueue(countedJob, { key: 'late-start' });
      await waitFor(async () => (await jobState(queue, jobId)) === 'completed', 10_000);
    } finally {
      worker ??= await starting.catch(() => undefined);
      await tearDown(...(worker ? [worker] : []));
      await proxy.close();
    }
  });

  it('refuses to start when every snowflake worker id is leased', async () => {
    const { redisPrefix, tearDown } = setUp();
    const pipeline = redis().pipeline();
    for (let id = 0; id < 1024; id++) pipeline.set(workerIdLeaseKey(redisPrefix, id), 'someone-else', 'PX', 60_000);
    await pipeline.exec();
    try {
      const refused = await spawnWorker(redisPrefix).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(ServiceExitError);
      expect((refused as ServiceExitError).status.code).not.toBe(0);
      expect((refused as ServiceExitError).stderr).toContain('No free snowflake worker id');
    } finally {
      await tearDown();
    }
  });
});
