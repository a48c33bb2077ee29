import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createWebhookFixture, webhookMessages } from '@switchboard/testkit/webhooks';
import { reserveFixtureWorkerIds } from '@switchboard/testkit/ids';
import { SENTINEL_MASTER_NAME, startSentinels, type RunningSentinels } from '@switchboard/testkit/sentinel';
import { spawnService, type ServiceProcess } from '@switchboard/testkit/processes';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { useTestPool } from '@switchboard/testkit/pool';
import { waitFor } from '@switchboard/testkit/wait';

// The gateway and the webhook worker as processes on Redis behind Sentinel (a master, two
// replicas, three sentinels), enqueues waiting for one replica (REDIS_WAIT_REPLICAS=1); the
// master is SIGKILLed under execute traffic (docs/decisions.md#replicated-enqueues).
const environment = useTestEnvironment();
const pool = useTestPool(environment, 1);
let ha: RunningSentinels;
let gateway: ServiceProcess;
let worker: ServiceProcess;

beforeAll(async () => {
  ha = await startSentinels({ replicas: 2 });
  const master = new Redis({ host: '127.0.0.1', port: await ha.masterPort(), lazyConnect: true });
  try {
    await reserveFixtureWorkerIds(master, environment.redisPrefix);
    // The processes lease ids only once the replicas hold the reservation.
    await master.call('WAIT', '2', '5000');
  } finally {
    master.disconnect();
  }
  const env = environment.processEnv({
    REDIS_SENTINELS: ha.sentinels.map(({ host, port }) => `${host}:${port}`).join(','),
    REDIS_SENTINEL_NAME: SENTINEL_MASTER_NAME,
    REDIS_WAIT_REPLICAS: '1',
    RATE_LIMITS_ENABLED: 'false',
  });
  [gateway, worker] = await Promise.all([
    spawnService('gateway', { ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' }),
    spawnService('webhook-worker', env),
  ]);
}, 90_000);

afterAll(async () => {
  await Promise.all([gateway?.stop(), worker?.stop()]);
  await ha?.stop();
});

interface Sent {
  content: string;
  startedAt: number;
  ms: number;
  status: number;
  retryAfter: string | null;
}

it('answers 503 with Retry-After while no replica confirms an enqueue, and 2xx again once one does', async () => {
  const hook = await createWebhookFixture(pool());
  const url = `http://127.0.0.1:${gateway.ready['port']}/v1/webhooks/${hook.webhookId}/${hook.token}`;
  const execute = (content: string) =>
    fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content }),
      signal: AbortSignal.timeout(15_000),
    });
  expect((await execute('before')).status).toBe(204);
  await ha.signalReplicas('SIGSTOP');
  try {
    const started = performance.now();
    const refused = await execute('unconfirmed');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).not.toBeNull();
    expect(await refused.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    // The wait is bounded by REDIS_WAIT_TIMEOUT_MS (500 ms by default), well inside the command bound.
    expect(performance.now() - started).toBeLessThan(2_000);
    // Why, in the gateway's log (which reaches this process's pipe a little after the answer).
    await waitFor(
      async () => gateway.stdout().includes('0 of 1 Redis replicas confirmed the enqueue in time'),
      5_000,
      50,
    );
  } finally {
    await ha.signalReplicas('SIGCONT');
  }
  await waitFor(async () => (await execute('after')).status === 204, 10_000, 100);
  // The refused job was on the master all along: at least once, so it may be stored too, once.
  const rows = await waitFor(async () => {
    const stored = await webhookMessages(pool(), hook.webhookId);
    return stored.some(({ content }) => content === 'after') ? stored : undefined;
  }, 10_000);
  expect(rows.filter(({ content }) => content === 'before')).toHaveLength(1);
  expect(rows.filter(({ content }) => content === 'unconfirmed').length).toBeLessThanOrEqual(1);
}, 60_000);

it('answers every execute within its bound across a master kill, 2xx again soon after the promotion, each 2xx stored once', async () => {
  const hook = await createWebhookFixture(pool());
  const url = `http://127.0.0.1:${gateway.ready['port']}/v1/webhooks/${hook.webhookId}/${hook.token}`;
  const sent: Sent[] = [];
  let sending = true;
  let next = 0;
  const sender = async () => {
    while (sending) {
      const content = `failover-${next++}`;
      const startedAt = performance.now();
      const answer = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content }),
        signal: AbortSignal.timeout(15_000),
      }).catch(() => undefined);
      await answer?.arrayBuffer();
      const status = answer?.status ?? 0;
      sent.push({
        content,
        startedAt,
        ms: performance.now() - startedAt,
        status,
        retryAfter: answer?.headers.get('retry-after') ?? null,
      });
      // Refused: the client backs off a little, as a real one does.
      if (status >= 300) await sleep(50);
    }
  };
  const senders = Array.from({ length: 4 }, sender);
  const accepted = () => sent.filter(({ status }) => status >= 200 && status < 300);

  await waitFor(async () => accepted().length >= 40, 30_000, 50);
  const oldMaster = await ha.killMaster();
  await waitFor(async () => (await ha.masterPort().catch(() => oldMaster)) !== oldMaster, 30_000, 100);
  const promotedAt = performance.now();
  const acceptedAfter = () => accepted().filter(({ startedAt }) => startedAt > promotedAt);
  await waitFor(async () => acceptedAfter().length >= 40, 20_000, 50);
  sending = false;
  await Promise.all(senders);

  const firstAfter = acceptedAfter()[0]!;
  expect(firstAfter.startedAt + firstAfter.ms - promotedAt).toBeLessThan(10_000);
  for (const answer of sent) {
    // Bounded: a refused enqueue answers within the Redis command bound plus the wait for a replica.
    expect(answer.ms).toBeLessThan(5_000);
    if (answer.status >= 300) {
      expect(answer.status).toBe(503);
      expect(answer.retryAfter).not.toBeNull();
    }
  }
  // Every 2xx is stored, once; a 503 may or may not have been (at-least-once, never twice).
  const promised = new Set(accepted().map(({ content }) => content));
  const stored = await waitFor(async () => {
    const rows = await webhookMessages(pool(), hook.webhookId);
    const contents = new Set(rows.map(({ content }) => content));
    return [...promised].every((content) => contents.has(content)) ? rows : undefined;
  }, 30_000);
  const contents = stored.map(({ content }) => content);
  expect(new Set(contents).size).toBe(contents.length);
}, 120_000);
