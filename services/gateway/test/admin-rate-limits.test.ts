import { describe, expect, it } from 'vitest';
import { ACL, RATE_LIMIT_BUCKETS } from '@switchboard/contracts';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import type { Answer } from '@switchboard/testkit/http';
import { adminCall, createAdmin, insertKey, signInToDashboard } from './admin-helpers.ts';
import { uniqueClient, useClockedGateway } from './helpers.ts';

const environment = useTestEnvironment();
/** The address's failure budget at 60 a minute, so a refill is one second. */
const ADDRESS_BUDGET = 60;
// Rate limits on explicitly, deciding by a clock only this file moves.
const { gateway, clock } = useClockedGateway(environment, 'admin-rate-limits', {
  AUTH_FAILURE_BUDGET: String(ADDRESS_BUDGET),
});

const CREATE_LIMIT = RATE_LIMIT_BUCKETS['admin:code:generation'].limit;
/** GCRA refills one request per window/limit: 2 s for 30 per minute. */
const REFILL_MS = RATE_LIMIT_BUCKETS['admin:code:generation'].windowMs / CREATE_LIMIT;

/** Sends `create` until a 429 (or `max` requests); returns the answers before it and the 429. */
async function untilLimited(create: () => Promise<Answer>, max: number) {
  const admitted: Answer[] = [];
  for (let i = 0; i < max; i++) {
    const answer = await create();
    if (answer.status === 429) return { admitted, limited: answer };
    admitted.push(answer);
  }
  return { admitted, limited: undefined };
}

describe('admin rate limits', () => {
  it('admits admin:code:generation 30 per minute per admin, then 429 with the reference body', async () => {
    const admin = await createAdmin(gateway.pool, ['*']);
    const headers = uniqueClient();
    const create = () =>
      adminCall(gateway.url, { method: 'POST', path: '/v1/admin/api-keys', key: admin.key, body: {}, headers });
    const { admitted, limited } = await untilLimited(create, CREATE_LIMIT + 5);
    expect(admitted).toHaveLength(CREATE_LIMIT);
    expect(admitted.every((answer) => answer.status === 400)).toBe(true);
    expect(admitted[0]!.headers.get('x-ratelimit-limit')).toBe(String(CREATE_LIMIT));
    expect(limited).toBeDefined();
    expect(limited!.body).toEqual({
      code: 'RATE_LIMITED',
      message: "You're being rate limited.",
      global: false,
      retry_after: expect.any(Number),
    });
    expect(limited!.body.retry_after).toBe(REFILL_MS / 1000);
    expect(limited!.headers.get('retry-after')).toBe(String(limited!.body.retry_after));
    expect(limited!.headers.get('x-ratelimit-global')).toBe('false');
    expect(limited!.headers.get('x-ratelimit-remaining')).toBe('0');

    // Every key of the admin shares the admin's budget, whatever address it comes from.
    const other = await insertKey(gateway.pool, admin.adminId, ['*']);
    const answer = await adminCall(gateway.url, {
      method: 'POST',
      path: '/v1/admin/api-keys',
      key: other.key,
      body: {},
      headers: uniqueClient(),
    });
    expect(answer.status).toBe(429);
    // One refill later the admin has exactly one request again.
    await clock.advance(REFILL_MS);
    expect((await create()).status).toBe(400);
    expect((await create()).status).toBe(429);
  });

  it('limits an unauthenticated caller by client IP, and the 429 comes before the 401', async () => {
    const headers = uniqueClient();
    const create = () => adminCall(gateway.url, { method: 'POST', path: '/v1/admin/api-keys', body: {}, headers });
    const { admitted, limited } = await untilLimited(create, CREATE_LIMIT + 5);
    expect(admitted).toHaveLength(CREATE_LIMIT);
    expect(admitted.every((answer) => answer.status === 401)).toBe(true);
    expect(limited?.body.code).toBe('RATE_LIMITED');
    const elsewhere = await adminCall(gateway.url, {
      method: 'POST',
      path: '/v1/admin/api-keys',
      body: {},
      headers: uniqueClient(),
    });
    expect(elsewhere.status).toBe(401);
  });

  it('uses each route’s bucket, and leaves GET /admin/api-keys unlimited', async () => {
    const admin = await createAdmin(gateway.pool, [
      ACL.authenticate,
      ACL.apiKeyManage,
      ACL.auditLogView,
      ACL.banIpCheck,
    ]);
    const call = (method: string, path: string, body?: unknown) =>
      adminCall(gateway.url, { method, path, key: admin.key, body });
    expect((await call('POST', '/v1/admin/audit-logs', {})).headers.get('x-ratelimit-limit')).toBe('100');
    expect((await call('POST', '/v1/admin/audit-logs/search', { query: 'x' })).headers.get('x-ratelimit-limit')).toBe(
      '100',
    );
    expect((await call('DELETE', '/v1/admin/api-keys/1')).headers.get('x-ratelimit-limit')).toBe('100');
    expect((await call('POST', '/v1/admin/bans/ip/check', {})).headers.get('x-ratelimit-limit')).toBe('60');
    // More than the global 50 per second: a route without a bucket has no global check either.
    const answers = await Promise.all(Array.from({ length: 60 }, () => call('GET', '/v1/admin/api-keys')));
    expect(answers.map((answer) => answer.status)).toEqual(Array(60).fill(200));
    expect(answers[0]!.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('refuses an address whose keys failed AUTH_FAILURE_BUDGET times a minute with 429 before looking any key up', async () => {
    const admin = await createAdmin(gateway.pool, ['*']);
    const headers = uniqueClient();
    // Well-formed keys that match nothing: each costs a lookup, and spends one unit.
    for (let index = 0; index < ADDRESS_BUDGET; index += 1) {
      const guess = await insertKey(gateway.pool, admin.adminId, ['*']);
      const forged = `${guess.key.slice(0, -4)}zzzz`;
      const answer = await adminCall(gateway.url, { method: 'GET', path: '/v1/admin/api-keys', key: forged, headers });
      expect(answer.status).toBe(401);
    }
    const refused = await adminCall(gateway.url, {
      method: 'GET',
      path: '/v1/admin/api-keys',
      key: admin.key,
      headers,
    });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED', global: false });
    expect(refused.headers.get('x-ratelimit-bucket')).toBe('auth:failures');
    expect(refused.headers.get('x-ratelimit-limit')).toBe(String(ADDRESS_BUDGET));
    // The admin's own key from elsewhere is unaffected, and successes spend nothing.
    for (let index = 0; index < 70; index += 1) {
      expect(
        (
          await adminCall(gateway.url, {
            method: 'GET',
            path: '/v1/admin/api-keys',
            key: admin.key,
            headers: uniqueClient(),
          })
        ).status,
      ).toBe(200);
    }
    await clock.advance(1000);
    expect(
      (await adminCall(gateway.url, { method: 'GET', path: '/v1/admin/api-keys', key: admin.key, headers })).status,
    ).toBe(200);
  });
});

describe('queue dashboard rate limit', () => {
  it('admits admin:dashboard 300 a minute per signed-in admin, then 429', async () => {
    const limit = RATE_LIMIT_BUCKETS['admin:dashboard'].limit;
    const admin = await createAdmin(gateway.pool, [ACL.authenticate, ACL.jobsRead]);
    const { cookie } = await signInToDashboard(gateway.url, admin.key, uniqueClient());
    // The board's page, the cheapest request through the whole chain; each from another address.
    const page = () =>
      fetch(`${gateway.url}/v1/admin/dashboard/`, {
        headers: { Cookie: cookie, ...uniqueClient() },
        redirect: 'manual',
      });
    let admitted = 0;
    let refused: Response | undefined;
    for (let i = 0; i < limit + 5 && refused === undefined; i++) {
      const answer = await page();
      if (answer.status === 429) refused = answer;
      else admitted += 1;
      await answer.arrayBuffer();
    }
    expect(admitted).toBe(limit);
    expect(refused?.headers.get('x-ratelimit-limit')).toBe(String(limit));
    await clock.advance(RATE_LIMIT_BUCKETS['admin:dashboard'].windowMs / limit);
    expect((await page()).status).toBe(200);
  });
});
