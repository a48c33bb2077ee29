import { expect, it } from 'vitest';
import { commonSchema, parseConfig } from '../src/index.ts';

const stores = { DATABASE_URL: 'postgres://db/switchboard', REDIS_URL: 'redis://redis:6379' };

it('waits for no replica unless told, 500 ms when told', () => {
  expect(parseConfig(commonSchema, stores)).toMatchObject({ ok: true, config: { REDIS_WAIT_REPLICAS: 0 } });
  expect(parseConfig(commonSchema, { ...stores, REDIS_WAIT_REPLICAS: '1' })).toMatchObject({
    ok: true,
    config: { REDIS_WAIT_REPLICAS: 1, REDIS_WAIT_TIMEOUT_MS: 500 },
  });
});

it('refuses a wait for replicas as long as the command bound, which would cut every late wait off', () => {
  const parsed = parseConfig(commonSchema, {
    ...stores,
    REDIS_WAIT_REPLICAS: '1',
    REDIS_WAIT_TIMEOUT_MS: '2000',
    REDIS_COMMAND_TIMEOUT_MS: '2000',
  });
  expect(parsed).toEqual({ ok: false, problems: [expect.stringMatching(/^REDIS_WAIT_TIMEOUT_MS: must be below/)] });
  // Without replicas to wait for, the two bounds are unrelated.
  expect(
    parseConfig(commonSchema, { ...stores, REDIS_WAIT_TIMEOUT_MS: '2000', REDIS_COMMAND_TIMEOUT_MS: '100' }).ok,
  ).toBe(true);
});
