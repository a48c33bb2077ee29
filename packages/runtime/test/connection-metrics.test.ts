import { afterEach, expect, it } from 'vitest';
import { createWebhookFixture } from '@switchboard/testkit/webhooks';
import { metricValue, scrapeMetrics } from '@switchboard/testkit/metrics';
import { spawnService, type ServiceProcess } from '@switchboard/testkit/processes';
import { startFaultProxy } from '@switchboard/testkit/fault-proxy';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { useTestPool } from '@switchboard/testkit/pool';
import { waitFor } from '@switchboard/testkit/wait';

// The connection figures of real processes, against what PostgreSQL itself counts for them.
const environment = useTestEnvironment();
const pool = useTestPool(environment, 1);
const running: ServiceProcess[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((service) => service.stop()));
});

/** Connections PostgreSQL has open for `applicationName` on the file's database. */
async function seenByPostgres(applicationName: string): Promise<number> {
  const { rows } = await pool().query<{ count: string }>(
    'SELECT count(*) FROM pg_stat_activity WHERE application_name = $1 AND datname = current_database()',
    [applicationName],
  );
  return Number(rows[0]!.count);
}

it.each([
  {
    service: 'bulk-worker',
    url: (ready: ServiceProcess['ready']) => `http://127.0.0.1:${String(ready['healthPort'])}`,
  },
  { service: 'gateway', url: (ready: ServiceProcess['ready']) => `http://127.0.0.1:${String(ready['port'])}` },
])('$service exports the connections it holds, as PostgreSQL counts them', async ({ service, url }) => {
  const process = await spawnService(
    service,
    environment.processEnv({ DATABASE_POOL_SIZE: '3', GATEWAY_PROCESSES: '1' }),
  );
  running.push(process);
  const metrics = `${url(process.ready)}/metrics`;
  // Its readiness check queries the database: a pool that has been used.
  expect((await fetch(`${url(process.ready)}/readyz`)).status).toBe(200);
  const samples = await waitFor(async () => {
    const { samples } = await scrapeMetrics(metrics);
    const open = metricValue(samples, 'db_connections', { kind: 'pool', state: 'open' }) ?? 0;
    // Only a moment with the same count on both sides, scraped before and after, is compared.
    const counted = await seenByPostgres(`switchboard-${service}`);
    const again = metricValue((await scrapeMetrics(metrics)).samples, 'db_connections', {
      kind: 'pool',
      state: 'open',
    });
    return open > 0 && open === again && open === counted && samples;
  }, 20_000);
  expect(metricValue(samples, 'db_pool_max_connections')).toBe(3);
  expect(metricValue(samples, 'db_connections', { kind: 'pool', state: 'open' })).toBeLessThanOrEqual(3);
  expect(metricValue(samples, 'db_pool_waiting_requests')).toBe(0);
  // Every process has a request-path client; a worker also its BullMQ connections.
  expect(metricValue(samples, 'redis_connections', { role: 'client' })).toBeGreaterThanOrEqual(1);
  if (service === 'bulk-worker')
    expect(metricValue(samples, 'redis_connections', { role: 'worker' })).toBeGreaterThanOrEqual(2);
});

it('a gateway process holds one more Redis connection for each queue it waits on', async () => {
  const gateway = await spawnService('gateway', environment.processEnv({ GATEWAY_PROCESSES: '1' }));
  running.push(gateway);
  const base = `http://127.0.0.1:${String(gateway.ready['port'])}`;
  const blocking = async () =>
    metricValue((await scrapeMetrics(`${base}/metrics`)).samples, 'redis_connections', { role: 'worker' });
  // The IP-ban subscriber.
  expect(await blocking()).toBe(1);
  const hook = await createWebhookFixture(pool());
  // No worker runs: the wait ends at its bound, having listened for the job's events.
  const waited = await fetch(`${base}/v1/webhooks/${hook.webhookId}/${hook.token}?wait=true`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ content: 'waited for' }),
  });
  await waited.body?.cancel();
  await waitFor(async () => (await blocking()) === 2, 10_000);
});

it("a gateway's breaker and readiness on a silent database: open and unready in its log and /metrics, back after", async () => {
  const target = new URL(environment.databaseUrl);
  const proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port) });
  try {
    const gateway = await spawnService(
      'gateway',
      environment.processEnv({
        GATEWAY_PROCESSES: '1',
        DATABASE_URL: proxy.urlFor(environment.databaseUrl),
        READY_CHECK_TIMEOUT_MS: '5000',
        LOG_LEVEL: 'info',
      }),
    );
    running.push(gateway);
    const base = `http://127.0.0.1:${String(gateway.ready['port'])}`;
    const breaker = async () => {
      const { samples } = await scrapeMetrics(`${base}/metrics`);
      return {
        open: metricValue(samples, 'circuit_breaker_open', { dependency: 'database' }),
        opened:
          metricValue(samples, 'circuit_breaker_transitions_total', { dependency: 'database', state: 'open' }) ?? 0,
        ready: metricValue(samples, 'readiness_ready'),
        postgres: metricValue(samples, 'readiness_check_ok', { check: 'postgres' }),
        lease: metricValue(samples, 'snowflake_lease_held'),
      };
    };
    expect(await breaker()).toEqual({ open: 0, opened: 0, ready: 1, postgres: 1, lease: 1 });

    proxy.setMode('blackhole');
    // Scraped, not probed: the metrics check readiness themselves.
    // The first scrape's readiness check is what meets the silence (and opens the breaker).
    const silent = await waitFor(async () => {
      const figures = await breaker();
      return figures.open === 1 && figures;
    }, 20_000);
    expect(silent).toEqual({ open: 1, opened: 1, ready: 0, postgres: 0, lease: 1 });
    expect(gateway.output()).toMatch(/circuit opened: calls fail at once until a probe succeeds/);

    proxy.setMode('pass');
    await waitFor(async () => (await fetch(`${base}/readyz`)).status === 200, 15_000, 250);
    expect(await breaker()).toMatchObject({ open: 0, ready: 1, postgres: 1 });
    expect(gateway.output()).toMatch(/circuit closed: the dependency answers again/);
  } finally {
    await Promise.all(running.splice(0).map((service) => service.stop()));
    await proxy.close();
  }
});
