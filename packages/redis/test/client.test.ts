import { randomUUID } from 'node:crypto';
import { Command, type Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// Not in package.json: testkit depends on this package, and turbo refuses a cycle.
import { useTestEnvironment } from '@switchboard/testkit';
import { closeRedis, createRedis, duplicateRedis, whenRedisReady } from '../src/index.ts';

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
  it('let go of a command\'s arguments once it succeeded, and answer it as before', async () => {
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
});
