import { afterAll, beforeAll, expect, it } from 'vitest';
// Not in package.json: testkit depends on this package, and turbo refuses a cycle.
import { SENTINEL_MASTER_NAME, startSentinels, type RunningSentinels } from '@switchboard/testkit/sentinel';
import { waitFor } from '@switchboard/testkit/wait';
import { closeRedis, createRedis, redisTarget } from '../src/index.ts';

let ha: RunningSentinels;
beforeAll(async () => {
  ha = await startSentinels();
}, 60_000);
afterAll(() => ha?.stop());

it('a client behind Sentinel writes again on the promoted replica after its master is killed', async () => {
  const target = redisTarget({
    REDIS_URL: 'redis://ignored-host:6379',
    REDIS_SENTINELS: ha.sentinels,
    REDIS_SENTINEL_NAME: SENTINEL_MASTER_NAME,
  });
  const client = createRedis(target, { role: 'client', name: 'sentinel-test' });
  try {
    await waitFor(async () => (await client.set('sentinel-test:before', '1').catch(() => null)) === 'OK', 10_000);
    // Replication is asynchronous: an acknowledged write the replica has not yet received is
    // lost with its master. WAIT for the replica before the kill, as a write that must survive does.
    expect(await client.call('WAIT', '1', '2000')).toBe(1);
    const oldMaster = await ha.killMaster();
    const killed = performance.now();
    // Writes fail fast (a client role) until the sentinels promote the replica and the client
    // asks them again; then they go to the new master.
    await waitFor(async () => (await client.set('sentinel-test:after', '2').catch(() => null)) === 'OK', 20_000, 100);
    const gapMs = performance.now() - killed;
    expect(await ha.masterPort()).not.toBe(oldMaster);
    expect(await client.get('sentinel-test:before')).toBe('1');
    expect(await client.get('sentinel-test:after')).toBe('2');
    // Down after 1 s, then an election: a few seconds, never the 20 s bound.
    expect(gapMs).toBeLessThan(15_000);
  } finally {
    await closeRedis(client);
  }
}, 60_000);
