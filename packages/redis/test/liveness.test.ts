import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterEach, expect, it } from 'vitest';
// Not in package.json: testkit depends on this package, and turbo refuses a cycle.
import { startFaultProxy, type FaultProxy } from '@switchboard/testkit/fault-proxy';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { waitFor } from '@switchboard/testkit/wait';
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

it('a connection replaced with a command unanswered is not cut again by the old liveness bound', async () => {
  const target = new URL(environment.redisUrl);
  const proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port) });
  opened.push(proxy);
  const client = createRedis(proxy.urlFor(environment.redisUrl), { role: 'worker', name: 'liveness-stale' });
  // BullMQ's blocking connection is a duplicate: it must be guarded as well.
  const duplicate = client.duplicate();
  opened.push(client, duplicate);
  const connections = [client, duplicate];
  await Promise.all(connections.map((connection) => connection.ping()));
  const closes = connections.map(() => 0);
  const errors: string[] = [];
  connections.forEach((connection, index) => {
    connection.on('close', () => {
      closes[index]! += 1;
    });
    connection.on('error', (error: Error) => errors.push(error.message));
  });

  // A command left unanswered arms the liveness bound; then the connection is reset under it.
  proxy.setMode('blackhole');
  const unanswered = connections.map((connection) => connection.ping());
  const armed = Date.now();
  proxy.setMode('cut');
  await waitFor(async () => closes.every((count) => count > 0));
  proxy.setMode('pass');
  // Sent again on the new connections once they are ready, and answered there.
  await expect(Promise.all(unanswered)).resolves.toEqual(['PONG', 'PONG']);

  // Past the old commands' bound, the new connections must still be the ones in use.
  const pastOldBound = armed + WORKER_SOCKET_TIMEOUT_MS + 2_000;
  while (Date.now() < pastOldBound) {
    await expect(Promise.all(connections.map((connection) => connection.ping()))).resolves.toEqual(['PONG', 'PONG']);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  expect(errors.filter((message) => message.startsWith('Socket timeout'))).toEqual([]);
  expect(closes).toEqual([1, 1]);
}, 60_000);
