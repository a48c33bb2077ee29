import { formatMachineCpu } from '../../machine-cpu.ts';
import { ratio } from '../../measure.ts';
import { forkHelper } from '../../processes.ts';
import type { Benchmark, BenchContext } from '../../types.ts';
import { measurePostsWithCpu } from '../webhook-support/drive.ts';
import { CI_DEPLOY_MESSAGE, seedWebhook } from '../webhook-support/fixture.ts';
import { emptyQueue, openQueue } from '../webhook-support/queue.ts';

const BASELINE_ENTRY = new URL('../webhook-ingest/baseline.ts', import.meta.url).pathname;

/** One gateway, started with `env`, measured on plain execute of `hook`, then stopped. */
async function measureGateway(context: BenchContext, env: Record<string, string>, path: string, body: string) {
  const gateway = await context.startGateway({ RATE_LIMITS_ENABLED: 'false', ...env });
  try {
    return await measurePostsWithCpu(gateway.pid, { url: `${gateway.url}${path}`, body, headers: {} }, context.load);
  } finally {
    await gateway.stop();
  }
}

/**
 * Plain execute (POST /v1/webhooks/{id}/{token}, what Discord-style clients send: no dedupe
 * key), through the gateway as it runs (webhooks from memory while the change feed proves them
 * current) and with CREDENTIAL_CACHE_LEASE_MS=0 (the webhook read per request), against bare
 * express parsing the same body. No worker runs: the accept path; the queued jobs are removed.
 */
export const webhookExecute: Benchmark = {
  name: 'webhook-execute',
  description:
    'POST a Discord-style message to plain execute: gateway (webhooks from memory) vs the same with a read per request vs bare express JSON',
  async run(context) {
    const env = await context.serviceEnv();
    const hook = await seedWebhook(env['DATABASE_URL']!);
    const body = JSON.stringify(CI_DEPLOY_MESSAGE);
    const path = `/v1/webhooks/${hook.webhookId}/${hook.token}`;
    context.log(`message ${body.length} bytes; measuring the gateway with its webhook cache`);
    const cached = await measureGateway(context, {}, path, body);
    context.log('measuring the gateway reading the webhook per request (CREDENTIAL_CACHE_LEASE_MS=0)');
    const uncached = await measureGateway(context, { CREDENTIAL_CACHE_LEASE_MS: '0' }, path, body);
    context.log('measuring the baseline');
    const register = (name: string, stop: () => Promise<void>) => context.cleanup.defer(name, stop);
    const baseline = await forkHelper('execute baseline', BASELINE_ENTRY, {}, { NODE_ENV: 'production' }, register);
    const baselineRun = await measurePostsWithCpu(
      baseline.pid,
      { url: `${baseline.url}${path}`, body, headers: {} },
      context.load,
    );
    const queue = openQueue(env);
    await emptyQueue(queue.queue).finally(() => queue.close());
    const cpu = (run: { cpuMsPerRequest: number }) => run.cpuMsPerRequest.toFixed(3);
    return {
      benchmark: 'webhook-execute',
      notes: [
        `a ${body.length}-byte message (content and one embed with two fields), no dedupe key: the gateway checks the body, rate limits off, looks the webhook up, enqueues one job and answers 204`,
        'gateway: NODE_ENV=production (development on the development S3 store, which production refuses), LOG_LEVEL=silent, GATEWAY_PROCESSES=auto; "from memory": CREDENTIAL_CACHE_LEASE_MS default (1 s), "read per request": 0',
        `process CPU per request (ms, user + system, measured run): gateway from memory ${cpu(cached)}, read per request ${cpu(uncached)}, express JSON ${cpu(baselineRun)}`,
        `machine CPU per request (ms, every core, load generator included; of which PostgreSQL and Redis): from memory ${formatMachineCpu(cached.machine)}, read per request ${formatMachineCpu(uncached.machine)}, express JSON ${formatMachineCpu(baselineRun.machine)}`,
        'gateway, baseline, PostgreSQL, Redis and autocannon share this machine: compare the ratio, not absolute numbers',
      ],
      targets: [
        {
          target: 'gateway plain execute (webhooks from memory)',
          url: '/v1/webhooks/{id}/{token}',
          measurement: cached.measurement,
        },
        {
          target: 'gateway plain execute (read per request)',
          url: '/v1/webhooks/{id}/{token}',
          measurement: uncached.measurement,
        },
        {
          target: 'express JSON baseline',
          url: `${baseline.url}/v1/webhooks/{id}/{token}`,
          measurement: baselineRun.measurement,
        },
      ],
      ratios: {
        'from memory/read per request rps': ratio(
          cached.measurement.requestsPerSecond,
          uncached.measurement.requestsPerSecond,
        ),
        'from memory/baseline rps': ratio(
          cached.measurement.requestsPerSecond,
          baselineRun.measurement.requestsPerSecond,
        ),
        'read per request/baseline rps': ratio(
          uncached.measurement.requestsPerSecond,
          baselineRun.measurement.requestsPerSecond,
        ),
        'from memory/read per request machine CPU per request': ratio(cached.machine.totalMs, uncached.machine.totalMs),
      },
    };
  },
};
