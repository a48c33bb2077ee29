import { expect, it } from 'vitest';
import { commonSchema, parseConfig } from '../src/index.ts';

const stores = { DATABASE_URL: 'postgres://db/switchboard', REDIS_URL: 'redis://:secret@unused:6379' };
const cluster = { ...stores, REDIS_CLUSTER_NODES: '10.0.0.1:7000, 10.0.0.2:7001' };

it('reads the seed nodes as sentinels are read', () => {
  expect(parseConfig(commonSchema, cluster)).toMatchObject({
    ok: true,
    config: {
      REDIS_CLUSTER_NODES: [
        { host: '10.0.0.1', port: 7000 },
        { host: '10.0.0.2', port: 7001 },
      ],
    },
  });
  expect(parseConfig(commonSchema, { ...stores, REDIS_CLUSTER_NODES: '10.0.0.1' })).toEqual({
    ok: false,
    problems: ['REDIS_CLUSTER_NODES: expected host:port,host:port,…'],
  });
});

it.each([
  ['sentinels', { REDIS_SENTINELS: '10.0.0.9:26379' }, /^REDIS_CLUSTER_NODES, REDIS_SENTINELS: set one of them/],
  ['a wait for replicas', { REDIS_WAIT_REPLICAS: '1' }, /^REDIS_WAIT_REPLICAS: must be 0 with REDIS_CLUSTER_NODES/],
  [
    'a database other than 0',
    { REDIS_URL: 'redis://unused:6379/2' },
    /^REDIS_URL: a Redis Cluster has only database 0/,
  ],
])('refuses a cluster with %s in one sentence', (_, extra, problem) => {
  expect(parseConfig(commonSchema, { ...cluster, ...extra })).toEqual({
    ok: false,
    problems: [expect.stringMatching(problem)],
  });
});

it('takes database 0 named explicitly', () => {
  expect(parseConfig(commonSchema, { ...cluster, REDIS_URL: 'redis://unused:6379/0' }).ok).toBe(true);
});
