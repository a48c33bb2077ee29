import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterEach, expect, it } from 'vitest';
// Not in package.json: testkit depends on this package, and turbo refuses a cycle.
import { startFaultProxy, useTestEnvironment, waitFor, type FaultProxy } from '@switchboard/testkit';
import { closeRedis, createRedis, SUBSCRIBER_PING_INTERVAL_MS, WORKER_SOCKET_TIMEOUT_MS } from '../src/index.ts';

const environment = useTestEnvironment();
const opened: Array<Redis | FaultProxy> = [];
afterEach(async () => {
  for (const each of opened.splice(0).reverse())
    'strandOpenConnections' in each ? await each.close() : await closeRedis(each);
});

/** Noticing a dead connection, then making a new one and subscribing again on it. */
const BACK_WITHIN_MS = SUBSCRIBER_PING_INTERVAL_MS + WORKER_SOCKET_TIMEOUT_MS + 5_000;

it('a subscriber whose connection died without a word subscribes again on a new one', async () => {
  const target = new URL(environment.redisUrl);
  const proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port) });
  opened.push(proxy);
  const subscriber = createRedis(proxy.urlFor(environment.redisUrl), { role: 'worker', name: 'liveness-sub' });
  const publisher = createRedis(environment.redisUrl, { role: 'client', name: 'liveness-pub' });
  opened.push(subscriber, publisher);
  const channel = `${environment.redisPrefix}:liveness:${randomUUID()}`;
  const heard: string[] = [];
  subscriber.on('message', (_channel: string, message: string) => heard.push(message));
  await subscriber.subscribe(channel);
  await publisher.publish(channel, 'before');
  await waitFor(async () => heard.includes('before'));

  proxy.strandOpenConnections();
  const stranded = Date.now();
  // Published until one arrives: only a new connection, subscribed again, can carry it.
  const back = await waitFor(
    async () => {
      await publisher.publish(channel, 'after');
      return heard.includes('after') && Date.now();
    },
    BACK_WITHIN_MS,
    250,
  );
  expect(back - stranded).toBeGreaterThan(0);
  // The new connection went through the proxy too: the stranded one and the new one.
  expect(proxy.openConnections()).toBeGreaterThanOrEqual(2);
}, 60_000);
