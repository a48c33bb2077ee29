import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { Command, type Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// Not in package.json: testkit depends on this package, and turbo refuses a cycle.
import { useOwnedStore } from '@switchboard/testkit/owned-store/use';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { waitFor } from '@switchboard/testkit/wait';
import { closeRedis, createRedis, duplicateRedis, redisReadyWithin, whenRedisReady } from '../src/index.ts';

const environment = useTestEnvironment();
const clients: Redis[] = [];
const key = `client-test:${randomUUID()}`;

beforeAll(async () => {
  const client = createRedis(environment.redisUrl, { role: 'client', name: 'client-test' });
  clients.push(client, duplicateRedis(client, { role: 'worker', name: 'client-test-worker' }));
  await Promise.all(clients.map((each) => whenRedisReady(each, 10_000)));
});
afterAll(async () => {
  await clients[0]?.del(key);
  await Promise.all(clients.map((client) => closeRedis(client)));
});

describe('clients made by createRedis and duplicateRedis', () => {
  it("let go of a command's arguments once it succeeded, and answer it as before", async () => {
    for (const client of clients) {
      const value = 'x'.repeat(8192);
      const set = new Command('set', [key, value]);
      await expect(client.sendCommand(set)).resolves.toEqual(Buffer.from('OK'));
      // The release runs in the reaction queued before the caller's own.
      await Promise.resolve();
      expect(set.args).toEqual([]);
      await expect(client.get(key)).resolves.toBe(value);
    }
  });

  it('keep the arguments of a command that failed, which its error names', async () => {
    for (const client of clients) {
      const wrong = new Command('incr', [key]);
      await expect(client.sendCommand(wrong)).rejects.toThrow(/not an integer/);
      await Promise.resolve();
      expect(wrong.args).toEqual([key]);
    }
  });

  it('send the commands of one callback and its promise reactions in one socket write, each answered in order', async () => {
    for (const client of clients) {
      const socket = client.stream as unknown as {
        _write: (...args: unknown[]) => void;
        _writev: (...args: unknown[]) => void;
      };
      const write = socket._write;
      const writev = socket._writev;
      let writes = 0;
      const counted = (original: (...args: unknown[]) => void) =>
        function (this: unknown, ...args: unknown[]) {
          writes += 1;
          return original.apply(this, args);
        };
      socket._write = counted(write);
      socket._writev = counted(writev);
      try {
        const values = Array.from({ length: 50 }, (_, index) => `value-${index}`);
        // As jobs finishing together send their completions: each from a reaction of its own depth.
        const afterReactions = async (value: string, depth: number) => {
          for (let step = 0; step < depth; step += 1) await Promise.resolve();
          return client.echo(value);
        };
        await Promise.resolve(); // from here on, inside a reaction, as a worker's completions are
        const echoed = await Promise.all(values.map((value, index) => afterReactions(value, index % 4)));
        expect(echoed).toEqual(values);
        expect(writes).toBe(1);
        // A command alone is not kept waiting for company.
        await expect(client.echo('alone')).resolves.toBe('alone');
        expect(writes).toBe(2);
      } finally {
        socket._write = write;
        socket._writev = writev;
      }
    }
  });
});

describe('clients of a Redis that froze or went away', () => {
  const owned = useOwnedStore('redis');

  // A frozen server never closes its side: the replaced connection used to linger 2 s (ioredis's
  // disconnect timeout) before its replacement was even tried.
  it('let go of a connection that timed out on a frozen server at once, not after it closes its side', async () => {
    const client = createRedis(owned().address, { role: 'producer', name: 'frozen-drop', commandTimeoutMs: 300 });
    try {
      await redisReadyWithin(client, 10_000);
      await owned().freeze();
      const closed = once(client, 'close');
      // The client's own reaction (which drops the connection) runs before this one.
      const failedAt = await client.ping().then(
        () => undefined,
        () => performance.now(),
      );
      expect(failedAt).toBeDefined();
      await closed;
      expect(performance.now() - failedAt!).toBeLessThan(1_000);
    } finally {
      await owned().thaw();
      await closeRedis(client);
    }
  }, 30_000);

  // ioredis counts attempts until a connection is ready: after a long outage every client waits
  // the longest step, which is how late it may come back once Redis has.
  it('try again at least once a second however long Redis was away, and are back within about that of its return', async () => {
    const client = createRedis(owned().address, { role: 'client', name: 'away-cadence' });
    const delays: number[] = [];
    client.on('reconnecting', (delayMs: number) => delays.push(delayMs));
    try {
      await redisReadyWithin(client, 10_000);
      await owned().kill();
      // Twelve attempts: past the one whose wait reaches a second.
      await waitFor(async () => delays.length >= 12, 30_000, 50);
      expect(Math.max(...delays)).toBeLessThanOrEqual(1_000);
      await owned().restart();
      const backAt = performance.now();
      await redisReadyWithin(client, 10_000);
      expect(performance.now() - backAt).toBeLessThan(2_500);
    } finally {
      await closeRedis(client);
    }
  }, 60_000);
});
