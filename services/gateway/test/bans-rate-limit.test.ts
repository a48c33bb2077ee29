import { describe, expect, it } from 'vitest';
import { GLOBAL_RATE_LIMIT, RATE_LIMIT_BUCKETS } from '@switchboard/contracts';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import type { Answer } from '@switchboard/testkit/http';
import { createAdmin } from './admin-helpers.ts';
import { banCaller, type BanKind, type BanOperation } from './bans-helpers.ts';
import { uniqueClient, useClockedGateway } from './helpers.ts';

const environment = useTestEnvironment();
/** The gateway's rate limiter decides by a clock only this file moves. */
const { gateway, clock } = useClockedGateway(environment, 'bans-rate-limit');

const BUCKET = RATE_LIMIT_BUCKETS['admin:ban:operation'];
/** GCRA gives one request back per window/limit (1 s for 60 a minute). */
const REFILL_MS = BUCKET.windowMs / BUCKET.limit;
/**
 * Time between two requests, by the test clock: half the global bucket's interval (20 ms for
 * 50 a second), so the global limit never refuses within the run (its burst of 50 drains by
 * only one request per two) while the ban bucket gains only 0.6 of a request over 60 of them.
 */
const STEP_MS = GLOBAL_RATE_LIMIT.windowMs / GLOBAL_RATE_LIMIT.limit / 2;

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
    const answers: Answer[] = [];
    for (let i = 0; i <= BUCKET.limit; i++) {
      const [kind, operation, body] = ROUTES[i % ROUTES.length]!;
      answers.push(await bans(kind, operation, body));
      await clock.advance(STEP_MS);
    }
    const admitted = answers.slice(0, BUCKET.limit);
    expect(admitted.map((answer) => answer.status).filter((status) => status !== 200 && status !== 204)).toEqual([]);
    expect(admitted[0]!.headers.get('x-ratelimit-limit')).toBe('60');
    const limited = answers[BUCKET.limit]!;
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: 'RATE_LIMITED', global: false });

    // Any other ban route of the same admin is out of budget too; another admin is not.
    expect((await bans('ip', 'list', {})).status).toBe(429);
    const other = await createAdmin(gateway.pool, ['*']);
    expect((await banCaller(gateway.url, other.key, uniqueClient())('ip', 'list', {})).status).toBe(200);

    // A refill later (the clock has moved 61 steps since the first request) exactly one more.
    await clock.advance(REFILL_MS);
    expect((await bans('email', 'list', {})).status).toBe(200);
    expect((await bans('email', 'list', {})).status).toBe(429);
  });
});
