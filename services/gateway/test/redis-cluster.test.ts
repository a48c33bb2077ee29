import { afterAll, beforeAll, expect, it } from 'vitest';
import { ACL } from '@switchboard/contracts';
import { closeRedis, createRedis, whenRedisReady, type RedisClient } from '@switchboard/redis';
import { createGuildFixture } from '@switchboard/testkit/guilds';
import { createWebhookFixture, webhookMessages } from '@switchboard/testkit/webhooks';
import { reserveFixtureWorkerIds } from '@switchboard/testkit/ids';
import { ServiceExitError, spawnService, type ServiceProcess } from '@switchboard/testkit/processes';
import { startRedisCluster, type RunningRedisCluster } from '@switchboard/testkit/redis-cluster';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { useTestPool } from '@switchboard/testkit/pool';
import { waitFor } from '@switchboard/testkit/wait';
import { adminCall, createAdmin, signInToDashboard } from './admin-helpers.ts';

// The gateway and the webhook worker as processes on a real three-master Redis Cluster
// (REDIS_CLUSTER_NODES): executes stored through the queue, the rate limiter, the events
// stream and `?wait=true` (docs/decisions.md#redis-cluster).
const environment = useTestEnvironment();
const pool = useTestPool(environment, 1);
let cluster: RunningRedisCluster;
let redis: RedisClient;
let gateway: ServiceProcess;
let worker: ServiceProcess;
let bulkWorker: ServiceProcess;

beforeAll(async () => {
  cluster = await startRedisCluster();
  redis = createRedis({ nodes: cluster.nodes }, { role: 'client', name: 'gateway-cluster-test' });
  await whenRedisReady(redis, 10_000);
  await reserveFixtureWorkerIds(redis, environment.redisPrefix);
  // REDIS_URL's host is a closed port: with REDIS_CLUSTER_NODES it gives only credentials.
  const env = environment.processEnv({ REDIS_CLUSTER_NODES: cluster.nodesVariable, REDIS_URL: 'redis://127.0.0.1:1' });
  [gateway, worker, bulkWorker] = await Promise.all([
    spawnService('gateway', { ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' }),
    spawnService('webhook-worker', { ...env, LOG_LEVEL: 'warn' }),
    spawnService('bulk-worker', { ...env, LOG_LEVEL: 'warn' }),
  ]);
}, 90_000);

afterAll(async () => {
  await Promise.all([gateway?.stop(), worker?.stop(), bulkWorker?.stop()]);
  if (redis) await closeRedis(redis);
  await cluster?.stop();
});

it('stores executes sent through a gateway and a worker on a cluster, each once, and appends their events', async () => {
  const hook = await createWebhookFixture(pool());
  const url = `http://127.0.0.1:${gateway.ready['port']}/v1/webhooks/${hook.webhookId}/${hook.token}`;
  const execute = (content: string, query = '') =>
    fetch(`${url}${query}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content }),
      signal: AbortSignal.timeout(15_000),
    });
  const answers = await Promise.all(['one', 'two', 'three'].map((content) => execute(content)));
  expect(answers.map(({ status }) => status)).toEqual([204, 204, 204]);
  // Waited for: the gateway hears the job finish through its queue events on the cluster.
  const waited = await execute('waited', '?wait=true');
  expect(waited.status).toBe(200);
  expect(await waited.json()).toMatchObject({ content: 'waited', channel_id: hook.channelId });
  const rows = await waitFor(async () => {
    const stored = await webhookMessages(pool(), hook.webhookId);
    return stored.length >= 4 ? stored : undefined;
  }, 15_000);
  expect(rows.map(({ content }) => content).sort()).toEqual(['one', 'three', 'two', 'waited']);
  // A batch's rows commit before its events are appended: the events can trail the rows.
  const events = await waitFor(async () => {
    const appended = await redis.xrange(environment.eventsStreamKey, '-', '+');
    return appended.length >= 4 && appended;
  }, 15_000);
  expect(events).toHaveLength(4);
  const ready = await fetch(`http://127.0.0.1:${gateway.ready['port']}/readyz`);
  expect(ready.status).toBe(200);
  // Nothing refused for crossing slots, nor let through unlimited (the limiter fails open).
  expect(`${gateway.stdout()}${worker.stdout()}`).not.toMatch(/CROSSSLOT|rate limit/i);
}, 60_000);

it('numbers and publishes an IP ban, and keeps a dashboard session, on the cluster', async () => {
  const base = `http://127.0.0.1:${gateway.ready['port']}`;
  const admin = await createAdmin(pool(), [ACL.authenticate, ACL.banIpAdd, ACL.jobsRead]);
  const banned = await adminCall(base, {
    method: 'POST',
    path: '/v1/admin/bans/ip/add',
    key: admin.key,
    body: { ips: ['198.51.100.7'], reason: 'cluster' },
  });
  expect(banned.status).toBe(204);
  // The script that numbers and publishes the change ran on the node of its one key.
  expect(await redis.get(`${environment.redisPrefix}:ip-bans:seq`)).toBe('1');
  const { answer, cookie } = await signInToDashboard(base, admin.key);
  expect(answer.status).toBe(200);
  const board = await fetch(`${base}/v1/admin/dashboard/`, { headers: { cookie }, redirect: 'manual' });
  expect(board.status).toBe(200);
  expect(`${gateway.stdout()}${worker.stdout()}`).not.toMatch(/CROSSSLOT|redis connection error/i);
}, 60_000);

it('stops a webhook worker at start whose events stream no hash tag can share a slot with', async () => {
  const env = environment.processEnv({
    REDIS_CLUSTER_NODES: cluster.nodesVariable,
    REDIS_URL: 'redis://127.0.0.1:1',
    EVENTS_STREAM_KEY: 'events}',
  });
  const refused = await spawnService('webhook-worker', env).catch((error: unknown) => error);
  expect(refused).toBeInstanceOf(ServiceExitError);
  expect((refused as ServiceExitError).status.code).not.toBe(0);
  expect(`${(refused as ServiceExitError).stderr}`).toMatch(/events\}.*give it a \{hash tag\}/s);
}, 60_000);

it("runs an admin operation on the cluster: a bulk add answered with its worker's outcome", async () => {
  const base = `http://127.0.0.1:${gateway.ready['port']}`;
  const admin = await createAdmin(pool(), [ACL.authenticate, ACL.bulkAddGuildMembers]);
  const { guildId, userIds } = await createGuildFixture(pool(), 2);
  // Enqueue-and-wait: the row, the job on its queue's slot, the worker, the result back.
  const answer = await adminCall(base, {
    method: 'POST',
    path: '/v1/admin/bulk/add-guild-members',
    key: admin.key,
    body: { guild_id: guildId, user_ids: userIds },
  });
  expect(answer.status).toBe(200);
  expect(answer.body).toEqual({ successful: userIds, failed: [] });
  const logs = `${gateway.stdout()}${bulkWorker.stdout()}`;
  expect(logs).not.toMatch(/CROSSSLOT|redis connection error/i);
}, 60_000);
