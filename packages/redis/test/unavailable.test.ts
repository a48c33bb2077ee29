import { expect, it } from 'vitest';
import { isRedisUnavailable } from '../src/index.ts';

// ioredis's and Redis Cluster's wording, as they reach callers (the gateway answers these 503).
it.each([
  'Command timed out',
  'Connection is closed.',
  "Cluster isn't ready and enableOfflineQueue options is false",
  'Failed to refresh slots cache.',
  'None of startup nodes is available',
  'Too many Cluster redirections. Last error: Error: Connection is closed.',
  'CLUSTERDOWN The cluster is down',
])('counts "%s" as Redis unavailable', (message) => {
  expect(isRedisUnavailable(new Error(message))).toBe(true);
});

it('counts a cluster that failed every node as unavailable, and a refused command as not', () => {
  expect(
    isRedisUnavailable(Object.assign(new Error('Failed to refresh slots cache.'), { name: 'ClusterAllFailedError' })),
  ).toBe(true);
  expect(isRedisUnavailable(new Error("CROSSSLOT Keys in request don't hash to the same slot"))).toBe(false);
  expect(isRedisUnavailable(new Error('ERR value is not an integer or out of range'))).toBe(false);
});
