import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type Answer } from '@switchboard/testkit/http';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import type { ServedApp } from '@switchboard/testkit/network';
import type { RateLimitBucket } from '@switchboard/contracts';
import { rateLimit, rateLimitKey, redisKeyClock, setRateLimitIdentity } from '../src/rate-limit/index.ts';
import { freshIdentity, header, limitedRoutes, readyRedis, useLimitedApp } from './rate-limit-helpers.ts';
import { startApp } from './start-app.ts';

const env = useTestEnvironment();

function testBucket(name: string, limit: number, windowMs: number): RateLimitBucket {
  return { name, limit, windowMs, countsTowardGlobal: true };
}

const FIVE_PER_SECOND = testBucket('test:gcra', 5, 1000);
const FIVE_PER_MINUTE = testBucket('test:slow', 5, 60_000);
const SHARED = testBucket('test:shared', 3, 60_000);

const limited = useLimitedApp(env, {
  '/fast': FIVE_PER_SECOND,
  '/slow': FIVE_PER_MINUTE,
  '/shared-a': SHARED,
  '/shared-b': SHARED,
});

async function burst(path: string, identity: string, count: number): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (let i = 0; i < count; i++)
    answers.push(await call('GET', `${limited.app.url}${path}`, { headers: { 'x-identity': identity } }));
  return answers;
}

/** Limiter options of the routes this file builds by hand: the test clock, a patient timeout. */
const testClock = () => ({ clock: redisKeyClock(limited.redis, limited.clock.key), timeoutMs: 10_000 });

const numberHeader = (answer: Answer, name: string) => Number(header(answer, name));
const statuses = (answers: Answer[]) => answers.map((answer) => answer.status);

describe('GCRA', () => {
  it('admits exactly `limit` at once, counting remaining down, then one per emission interval', async () => {
    const identity = freshIdentity();
    const answers = await burst('/fast', identity, 6);
    expect(statuses(answers)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(answers.slice(0, 5).map((a) => numberHeader(a, 'x-ratelimit-remaining'))).toEqual([4, 3, 2, 1, 0]);
    expect(answers.every((a) => header(a, 'x-ratelimit-limit') === '5')).toBe(true);

    // The emission interval is 200 ms: one microsecond short of it nothing is free yet …
    await limited.clock.advance(199.999);
    expect(statuses(await burst('/fast', identity, 1))).toEqual([429]);
    // … and at it exactly one slot is.
    await limited.clock.advance(0.001);
    const [next, after] = await burst('/fast', identity, 2);
    expect(next?.status).toBe(200);
    expect(header(next!, 'x-ratelimit-remaining')).toBe('0');
    expect(after?.status).toBe(429);
    // Two intervals later, two slots.
    await limited.clock.advance(400);
    expect(statuses(await burst('/fast', identity, 3))).toEqual([200, 200, 429]);
  });

  it('reports reset as the Unix second the bucket drains and retry-after consistent with T', async () => {
    const T = 12_000_000; // µs: 60 s / 5
    const identity = freshIdentity();
    await limited.clock.advance(1);
    const startedAt = limited.clock.nowMicros();
    const answers = await burst('/slow', identity, 6);
    const resets = answers.map((a) => numberHeader(a, 'x-ratelimit-reset'));
    // The k-th request leaves the TAT at (first arrival) + k·T.
    expect(resets.slice(0, 5)).toEqual([1, 2, 3, 4, 5].map((k) => Math.ceil((startedAt + k * T) / 1e6)));
    const refused = answers[5]!;
    expect(refused.status).toBe(429);
    expect(resets[5]).toBe(resets[4]);
    // The first of the five slots frees one T after the first request.
    expect(numberHeader(refused, 'retry-after')).toBe(12);
    expect((refused.body as { retry_after: number }).retry_after).toBe(12);
    // 4.5 s later, the wait is 7.5 s, rounded up.
    await limited.clock.advance(4_500);
    const later = (await burst('/slow', identity, 1))[0]!;
    expect(later.status).toBe(429);
    expect(numberHeader(later, 'retry-after')).toBe(8);
  });

  it('keeps refusing while blocked: a refused request does not consume', async () => {
    const identity = freshIdentity();
    const answers = await burst('/slow', identity, 8);
    expect(statuses(answers)).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    const resets = answers.slice(4).map((a) => header(a, 'x-ratelimit-reset'));
    expect(new Set(resets).size).toBe(1);
    // One interval later exactly one is admitted, as if the refused three had never come.
    await limited.clock.advance(12_000);
    expect(statuses(await burst('/slow', identity, 2))).toEqual([200, 429]);
  });
});

describe('the 429 response', () => {
  it('has the interface body and headers', async () => {
    const identity = freshIdentity();
    const answers = await burst('/slow', identity, 6);
    const refused = answers[5]!;
    const nowSeconds = limited.clock.nowMicros() / 1e6;
    expect(refused.status).toBe(429);
    expect(header(refused, 'content-type')).toMatch(/^application\/json/);
    expect(refused.body).toEqual({
      code: 'RATE_LIMITED',
      message: "You're being rate limited.",
      retry_after: expect.any(Number),
      global: false,
    });
    const retryAfter = header(refused, 'retry-after');
    expect(retryAfter).toMatch(/^\d+$/);
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
    expect((refused.body as { retry_after: number }).retry_after).toBe(Number(retryAfter));
    expect(header(refused, 'x-ratelimit-global')).toBe('false');
    expect(header(refused, 'x-ratelimit-limit')).toBe('5');
    expect(header(refused, 'x-ratelimit-remaining')).toBe('0');
    expect(header(refused, 'x-ratelimit-reset')).toMatch(/^\d+$/);
    expect(numberHeader(refused, 'x-ratelimit-reset')).toBeGreaterThan(nowSeconds);
    expect(header(refused, 'x-ratelimit-bucket')).toBe('test:slow');
  });

  it('is not sent for allowed requests, which still carry the X-RateLimit headers', async () => {
    const [answer] = await burst('/slow', freshIdentity(), 1);
    expect(answer?.status).toBe(200);
    expect(answer?.body).toEqual({ ok: true });
    expect(header(answer!, 'retry-after')).toBeNull();
    expect(header(answer!, 'x-ratelimit-global')).toBeNull();
    expect(header(answer!, 'x-ratelimit-limit')).toBe('5');
    expect(header(answer!, 'x-ratelimit-remaining')).toBe('4');
    expect(header(answer!, 'x-ratelimit-reset')).toMatch(/^\d+$/);
  });
});

describe('bucket sharing', () => {
  it('gives different identities different budgets', async () => {
    const first = freshIdentity();
    expect((await burst('/slow', first, 6)).at(-1)?.status).toBe(429);
    const other = await burst('/slow', freshIdentity(), 5);
    expect(other.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
  });

  it('shares one budget between routes naming the same bucket', async () => {
    const identity = freshIdentity();
    const statuses: number[] = [];
    for (const path of ['/shared-a', '/shared-b', '/shared-a', '/shared-b', '/shared-a']) {
      statuses.push((await call('GET', `${limited.app.url}${path}`, { headers: { 'x-identity': identity } })).status);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
  });

  it('shares one budget between two gateway instances on the same Redis and prefix', async () => {
    const clients = await Promise.all([readyRedis(env.redisUrl), readyRedis(env.redisUrl)]);
    const instances = await Promise.all(
      clients.map((client) =>
        startApp(limitedRoutes(client, env.redisPrefix, { '/x': SHARED }, redisKeyClock(client, limited.clock.key))),
      ),
    );
    try {
      const identity = freshIdentity();
      const statuses: number[] = [];
      const remaining: (string | null)[] = [];
      for (let i = 0; i < 6; i++) {
        const answer = await call('GET', `${instances[i % 2]!.url}/x`, { headers: { 'x-identity': identity } });
        statuses.push(answer.status);
        remaining.push(header(answer, 'x-ratelimit-remaining'));
      }
      expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
      expect(remaining).toEqual(['2', '1', '0', '0', '0', '0']);
    } finally {
      await Promise.all(instances.map((instance) => instance.close()));
      for (const client of clients) client.disconnect();
    }
  });
});

describe('the default identity and bucket names', () => {
  const TWO: RateLimitBucket = testBucket('test:ident', 2, 60_000);
  let identityApp: ServedApp;

  beforeAll(async () => {
    identityApp = await startApp((server) => {
      // Stands in for an auth middleware: it names the caller for the limiter.
      server.use((req, res, next) => {
        const user = req.get('x-user');
        if (user) setRateLimitIdentity(res, `user:${user}`);
        next();
      });
      const limiter = rateLimit({
        redis: limited.redis,
        prefix: env.redisPrefix,
        bucket: TWO,
        trustedProxyHops: 1,
        ...testClock(),
      });
      server.get('/who', limiter, (_req, res) => void res.json({ ok: true }));
      const execute = rateLimit({
        redis: limited.redis,
        prefix: env.redisPrefix,
        bucket: 'webhook:execute::webhook_id',
        ...testClock(),
      });
      server.post('/webhooks/:webhook_id/:token', execute, (_req, res) => void res.status(204).end());
    });
  });
  afterAll(() => identityApp?.close());

  const who = (headers: Record<string, string>) => call('GET', `${identityApp.url}/who`, { headers });

  it('counts an authenticated caller by the identity its auth middleware set', async () => {
    const user = freshIdentity();
    const statuses = [];
    for (const forwardedFor of ['198.51.100.1', '198.51.100.2', '198.51.100.3']) {
      statuses.push((await who({ 'x-user': user, 'x-forwarded-for': forwardedFor })).status);
    }
    expect(statuses).toEqual([200, 200, 429]);
    expect(await limited.redis.exists(rateLimitKey(env.redisPrefix, `user:${user}`, 'test:ident'))).toBe(1);
  });

  it('counts anyone else by client address, behind the trusted proxy hops', async () => {
    const first = await burst2({ 'x-forwarded-for': '6.6.6.6, 192.0.2.10' });
    expect(first).toEqual([200, 200, 429]);
    // The forged leftmost entry is not the identity; the address the proxy saw is.
    expect(await burst2({ 'x-forwarded-for': '7.7.7.7, 192.0.2.10' })).toEqual([429, 429, 429]);
    expect(await burst2({ 'x-forwarded-for': '192.0.2.11' })).toEqual([200, 200, 429]);
    expect(await limited.redis.exists(rateLimitKey(env.redisPrefix, 'ip:192.0.2.10', 'test:ident'))).toBe(1);
  });

  async function burst2(headers: Record<string, string>): Promise<number[]> {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await who(headers)).status);
    return statuses;
  }

  it('fills the route parameter into a templated bucket: one budget per webhook', async () => {
    const execute = (id: string) =>
      fetch(`${identityApp.url}/webhooks/${id}/token`, { method: 'POST', headers: { 'x-forwarded-for': '1.1.1.1' } });
    const first = await execute('111');
    expect(first.status).toBe(204);
    expect(first.headers.get('x-ratelimit-bucket')).toBe('webhook:execute:111');
    expect(first.headers.get('x-ratelimit-limit')).toBe('60');
    expect(first.headers.get('x-ratelimit-remaining')).toBe('59');
    expect((await execute('111')).headers.get('x-ratelimit-remaining')).toBe('58');
    expect((await execute('222')).headers.get('x-ratelimit-remaining')).toBe('59');
  });
});
