import { describe, expect, it } from 'vitest';
import { call, type Answer } from '@switchboard/testkit/http';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { GLOBAL_RATE_LIMIT, type RateLimitBucket } from '@switchboard/contracts';
import { checkRateLimit, redisKeyClock } from '../src/rate-limit/index.ts';
import { freshIdentity, header, useLimitedApp } from './rate-limit-helpers.ts';

const env = useTestEnvironment();

const LARGE_A: RateLimitBucket = { name: 'test:large-a', limit: 1000, windowMs: 60_000, countsTowardGlobal: true };
const LARGE_B: RateLimitBucket = { name: 'test:large-b', limit: 1000, windowMs: 60_000, countsTowardGlobal: true };
const EXEMPT: RateLimitBucket = { name: 'test:exempt', limit: 70, windowMs: 600_000, countsTowardGlobal: false };

const limited = useLimitedApp(env, { '/a': LARGE_A, '/b': LARGE_B, '/exempt': EXEMPT });

const ask = (path: string, identity: string) =>
  call('GET', `${limited.app.url}${path}`, { headers: { 'x-identity': identity } });

describe('the global limit (50 per second per identity)', () => {
  it('refuses the request past 50 in a second across different buckets, with global: true', async () => {
    const identity = freshIdentity();
    const answers: Answer[] = [];
    for (let i = 0; i < 52; i++) answers.push(await ask(i % 2 === 0 ? '/a' : '/b', identity));
    expect(answers.slice(0, 50).every((answer) => answer.status === 200)).toBe(true);
    const refused = answers[50]!;
    expect(refused.status).toBe(429);
    expect(answers[51]!.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED', global: true });
    expect(header(refused, 'x-ratelimit-global')).toBe('true');
    expect(header(refused, 'x-ratelimit-limit')).toBe('50');
    expect(header(refused, 'x-ratelimit-remaining')).toBe('0');
    expect(header(refused, 'retry-after')).toBe('1');
    // One emission interval (20 ms) later the global bucket admits exactly one more.
    await limited.clock.advance(GLOBAL_RATE_LIMIT.windowMs / GLOBAL_RATE_LIMIT.limit);
    expect((await ask('/a', identity)).status).toBe(200);
    expect((await ask('/b', identity)).status).toBe(429);
  });

  it('does not count routes exempt from it (webhook execution)', async () => {
    const identity = freshIdentity();
    const answers = await Promise.all(Array.from({ length: 70 }, () => ask('/exempt', identity)));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(70);
    const over = await ask('/exempt', identity);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ global: false });
    // The exempt burst left this identity's global budget untouched.
    const global = await Promise.all(Array.from({ length: 50 }, () => ask('/a', identity)));
    expect(global.every((a) => a.status === 200)).toBe(true);
  });
});

describe('route and global bucket together', () => {
  const global: RateLimitBucket = { name: 'global', limit: 3, windowMs: 60_000, countsTowardGlobal: true };
  const route = (name: string, limit: number, windowMs = 60_000): RateLimitBucket => ({
    name,
    limit,
    windowMs,
    countsTowardGlobal: true,
  });
  const check = (identity: string, bucket: RateLimitBucket, globalBucket = global) =>
    checkRateLimit(
      limited.redis,
      env.redisPrefix,
      { identity, bucketKey: bucket.name, bucket, global: globalBucket },
      redisKeyClock(limited.redis, limited.clock.key),
    );

  it('does not spend the global budget on a request the route refuses', async () => {
    const identity = freshIdentity();
    const narrow = route('test:narrow', 1);
    const wide = route('test:wide', 100);
    expect((await check(identity, narrow)).allowed).toBe(true);
    const refusedByRoute = await check(identity, narrow);
    expect(refusedByRoute).toMatchObject({ allowed: false, global: false, limit: 1 });
    expect((await check(identity, narrow)).allowed).toBe(false);
    // Global 3: one spent by the admitted narrow request, two left for the wide route.
    expect((await check(identity, wide)).allowed).toBe(true);
    expect((await check(identity, wide)).allowed).toBe(true);
    expect(await check(identity, wide)).toMatchObject({ allowed: false, global: true, limit: 3, remaining: 0 });
  });

  it('does not spend the route budget on a request the global limit refuses', async () => {
    const identity = freshIdentity();
    const shortGlobal: RateLimitBucket = { name: 'global', limit: 1, windowMs: 1500, countsTowardGlobal: true };
    const twoPerMinute = route('test:two', 2);
    expect(await check(identity, twoPerMinute, shortGlobal)).toMatchObject({ allowed: true, remaining: 1 });
    const refused = await check(identity, twoPerMinute, shortGlobal);
    expect(refused).toMatchObject({ allowed: false, global: true });
    expect(refused.retryAfterMs).toBe(1500);
    await limited.clock.advance(refused.retryAfterMs);
    // The route's second slot is still there: the globally refused request did not take it.
    expect(await check(identity, twoPerMinute, shortGlobal)).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('when both refuse, reports the global limit with the later of the two retry delays', async () => {
    const identity = freshIdentity();
    const oneGlobal: RateLimitBucket = { name: 'global', limit: 1, windowMs: 60_000, countsTowardGlobal: true };
    const slowRoute = route('test:slower', 1, 120_000);
    expect((await check(identity, slowRoute, oneGlobal)).allowed).toBe(true);
    const refused = await check(identity, slowRoute, oneGlobal);
    expect(refused).toMatchObject({ allowed: false, global: true, limit: 1 });
    expect(refused.retryAfterMs).toBe(120_000);
  });
});
