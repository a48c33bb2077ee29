import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMIT_BUCKETS } from '@switchboard/contracts';
import { useTestEnvironment } from '@switchboard/testkit';
import { createAdmin, type AdminAnswer } from './admin-helpers.ts';
import { banCaller, type BanKind, type BanOperation } from './bans-helpers.ts';
import { startGateway, uniqueClient, type RunningGateway } from './helpers.ts';

const environment = useTestEnvironment();
let gateway: RunningGateway;

const BUCKET = RATE_LIMIT_BUCKETS['admin:ban:operation'];
/** GCRA gives one request back per window/limit (1 s for 60 a minute). */
const REFILL_MS = BUCKET.windowMs / BUCKET.limit;
/** Under the global 50/s, so only the ban bucket can refuse. */
const PACE_MS = 25;

beforeAll(async () => {
  gateway = await startGateway(environment, { RATE_LIMITS_ENABLED: 'true', TRUSTED_PROXY_HOPS: '1' });
});

afterAll(async () => {
  await gateway?.close();
});

const ROUTES: Array<[BanKind, BanOperation, unknown]> = [
  ['email', 'check', { email: 'rl@limits.test' }],
  ['ip', 'check', { ip: '192.0.2.1' }],
  ['phone', 'list', {}],
  ['ip', 'add', { ip: '192.0.2.200' }],
  ['email', 'remove', { email: 'rl@limits.test' }],
  ['phone', 'check', { phone: '+15550000000' }],
];

describe('ban rate limits', () => {
  it('share one admin:ban:operation bucket (60 a minute per admin) across all twelve routes', async () => {
    expect(BUCKET.limit).toBe(60);
    const admin = await createAdmin(gateway.pool, ['*']);
    const bans = banCaller(gateway.url, admin.key, uniqueClient());
    const started = Date.now();
    const admitted: AdminAnswer[] = [];
    let limited: AdminAnswer | undefined;
    // On a slow machine the bucket refills while we send: keep going (bounded) until refused.
    const allowance = () => BUCKET.limit + Math.ceil((Date.now() - started) / REFILL_MS) + 10;
    for (let i = 0; i < allowance() && !limited; i++) {
      const [kind, operation, body] = ROUTES[i % ROUTES.length]!;
      const answer = await bans(kind, operation, body);
      if (answer.status === 429) limited = answer;
      else admitted.push(answer);
      await new Promise((resolve) => setTimeout(resolve, PACE_MS));
    }
    const elapsedMs = Date.now() - started;
    expect(admitted.every((answer) => answer.status === 200 || answer.status === 204)).toBe(true);
    expect(admitted.length).toBeGreaterThanOrEqual(BUCKET.limit);
    expect(admitted.length).toBeLessThanOrEqual(BUCKET.limit + Math.ceil(elapsedMs / REFILL_MS));
    expect(admitted[0]!.headers.get('x-ratelimit-limit')).toBe('60');
    expect(limited?.body).toMatchObject({ code: 'RATE_LIMITED', global: false });

    // Any other ban route of the same admin is out of budget too (unless a refill interval
    // passed since the refusal); another admin is not.
    const refusedAt = Date.now();
    const next = await bans('ip', 'list', {});
    if (Date.now() - refusedAt < REFILL_MS) expect(next.status).toBe(429);
    const other = await createAdmin(gateway.pool, ['*']);
    expect((await banCaller(gateway.url, other.key, uniqueClient())('ip', 'list', {})).status).toBe(200);
  });
});
