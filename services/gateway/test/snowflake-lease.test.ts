import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snowflakeWorkerId, workerIdLeaseKey } from '@switchboard/snowflake';
import { call } from '@switchboard/testkit/http';
import { createWebhookFixture } from '@switchboard/testkit/webhooks';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import type { ServiceProcess } from '@switchboard/testkit/processes';
import { startGateway, type RunningGateway } from './helpers.ts';
import { executeUrl, spawnWebhookWorker } from './webhook-execute-helpers.ts';

const environment = useTestEnvironment();
/** Both gateways are configured with this id, as replicas given one environment are. */
const SAME_WORKER_ID = { SNOWFLAKE_WORKER_ID: '42', RATE_LIMITS_ENABLED: 'false' };

let worker: ServiceProcess;
beforeAll(async () => {
  // A preference of its own, so the gateways' 42 is free for one of them.
  worker = await spawnWebhookWorker(environment, { SNOWFLAKE_WORKER_ID: '0' });
});
afterAll(async () => {
  await worker?.stop();
});

async function withGateways<T>(count: number, work: (gateways: RunningGateway[]) => Promise<T>): Promise<T> {
  const gateways = await Promise.all(Array.from({ length: count }, () => startGateway(environment, SAME_WORKER_ID)));
  try {
    return await work(gateways);
  } finally {
    await Promise.all(gateways.map((gateway) => gateway.close()));
  }
}

describe('snowflake worker-id leases in the gateway', () => {
  it('gives two gateways configured with one SNOWFLAKE_WORKER_ID distinct worker ids, and their messages distinct ids', async () => {
    await withGateways(2, async (gateways) => {
      const workerIds = gateways.map((gateway) => gateway.snowflakeLease.workerId());
      expect(workerIds).toContain(42);
      expect(new Set(workerIds).size).toBe(2);

      const webhook = await createWebhookFixture(gateways[0]!.pool);
      // At once, so both may well mint in the same millisecond: only the worker bits tell them apart.
      const answers = await Promise.all(
        gateways.map((gateway, index) =>
          call('POST', `${executeUrl(gateway, webhook)}?wait=true`, { body: { content: `via gateway ${index}` } }),
        ),
      );
      for (const [index, answer] of answers.entries()) {
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        // `?wait=true` answers the caller's own message, not the other gateway's.
        expect(answer.body.content).toBe(`via gateway ${index}`);
        expect(snowflakeWorkerId(answer.body.id)).toBe(workerIds[index]);
      }
      expect(answers[0]!.body.id).not.toBe(answers[1]!.body.id);
    });
  });

  it('answers 503 to requests that make ids while its lease is lost, and serves them again once it leases an id', async () => {
    await withGateways(1, async (gateways) => {
      const gateway = gateways[0]!;
      const { redis, snowflakeLease, config } = gateway;
      const webhook = await createWebhookFixture(gateway.pool);
      const leased = snowflakeLease.workerId()!;
      const key = (id: number) => workerIdLeaseKey(config.REDIS_PREFIX, id);
      // Another process takes this gateway's id, and every free id is leased too.
      // (The file's fixture ids are leased already: see reserveFixtureWorkerIds.)
      const others = Array.from({ length: 1024 }, (_, id) => id).filter((id) => id !== leased);
      const pipeline = redis.pipeline().set(key(leased), 'someone-else');
      for (const id of others) pipeline.set(key(id), 'someone-else', 'NX');
      const [, ...replies] = (await pipeline.exec())!;
      const takenHere = others.filter((_, index) => replies[index]![1] === 'OK');
      const freed = takenHere[0]!;
      try {
        expect(await snowflakeLease.renew()).toBe(false);

        const refused = await call('POST', executeUrl(gateway, webhook), { body: { content: 'no id for me' } });
        expect(refused.status).toBe(503);
        expect(refused.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
        expect(refused.headers.get('retry-after')).toBeTruthy();
        // Degraded, not unready: a lease is lost mostly when Redis is away for every replica.
        const ready = await call('GET', `${gateway.url}/readyz`);
        expect(ready.body).toMatchObject({ status: 'degraded', checks: { redis: 'ok', snowflake: 'failed' } });

        // One id frees up: the next renewal round leases it.
        await redis.del(key(freed));
        expect(await snowflakeLease.renew()).toBe(true);
        expect(snowflakeLease.workerId()).toBe(freed);
        const served = await call('POST', `${executeUrl(gateway, webhook)}?wait=true`, {
          body: { content: 'leased again' },
        });
        expect(served.status).toBe(200);
        expect(snowflakeWorkerId(served.body.id)).toBe(freed);
        expect((await call('GET', `${gateway.url}/readyz`)).body.status).toBe('ok');
      } finally {
        await redis.del(key(leased), ...takenHere.filter((id) => id !== freed).map(key));
      }
    });
  });
});
