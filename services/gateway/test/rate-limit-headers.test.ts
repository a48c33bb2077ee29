import { beforeAll, describe, expect, it } from 'vitest';
import {
  ACL,
  ADMIN_ROUTES,
  GLOBAL_RATE_LIMIT,
  RATE_LIMIT_BUCKETS,
  type RateLimitBucket,
  type RateLimitBucketName,
} from '@switchboard/contracts';
import { call, type Answer } from '@switchboard/testkit/http';
import { createWebhookFixture, type WebhookFixture } from '@switchboard/testkit/webhooks';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { createAdmin, signInToDashboard } from './admin-helpers.ts';
import { uniqueClient, useClockedGateway } from './helpers.ts';

const environment = useTestEnvironment();
/** A small address budget, so its 429 comes after a few bad keys. */
const ADDRESS_BUDGET = 10;
const { gateway, clock } = useClockedGateway(environment, 'rate-limit-headers', {
  AUTH_FAILURE_BUDGET: String(ADDRESS_BUDGET),
});
let hook: WebhookFixture;

beforeAll(async () => {
  hook = await createWebhookFixture(gateway.pool);
});

type Client = Record<string, string>;

let signedIn: Promise<string> | undefined;
/** A queue-dashboard session of an admin who may read jobs, made once. */
function dashboardCookie(): Promise<string> {
  signedIn ??= (async () => {
    const admin = await createAdmin(gateway.pool, [ACL.authenticate, ACL.jobsRead]);
    return (await signInToDashboard(gateway.url, admin.key, uniqueClient())).cookie;
  })();
  return signedIn;
}
/** One request spending the bucket, and the bucket key its 429 names. */
interface Case {
  send(client: Client): Promise<Answer>;
  key(): string;
  bucket: RateLimitBucket;
}

const url = (path: string) => `${gateway.url}${path}`;
const tokenPath = (suffix = '') => `/v1/webhooks/${hook.webhookId}/${hook.token}${suffix}`;

/** Unauthenticated: the route's bucket counts the client address, and its 429 comes before the 401. */
function adminCase(name: RateLimitBucketName): Case {
  const route = ADMIN_ROUTES.find((candidate) => candidate.bucket === name);
  if (!route) throw new Error(`no admin route uses ${name}`);
  const path = route.path.replace(/:[A-Za-z]+/g, '1');
  return {
    bucket: RATE_LIMIT_BUCKETS[name],
    key: () => name,
    send: (client) =>
      call(route.method, url(path), { body: route.method === 'POST' ? {} : undefined, headers: client }),
  };
}

function simple(name: RateLimitBucketName, key: () => string, send: Case['send']): Case {
  return { bucket: RATE_LIMIT_BUCKETS[name], key, send };
}

/** Every bucket a 429 can name, and a request of a route that spends it (the type makes the table whole). */
const CASES: Record<RateLimitBucketName | 'global', Case> = {
  'instance:info': simple(
    'instance:info',
    () => 'instance:info',
    (client) => call('GET', url('/v1/.well-known/service'), { headers: client }),
  ),
  'auth:failures': {
    bucket: { ...RATE_LIMIT_BUCKETS['auth:failures'], limit: ADDRESS_BUDGET },
    key: () => 'auth:failures',
    send: (client) => call('GET', url('/v1/admin/api-keys'), { token: 'not-a-key', scheme: 'Admin', headers: client }),
  },
  'webhook:failures::webhook_id': simple(
    'webhook:failures::webhook_id',
    () => `webhook:failures:${hook.webhookId}`,
    (client) =>
      call('POST', url(tokenPath('/github')), { body: [1, 2], headers: { ...client, 'X-GitHub-Event': 'push' } }),
  ),
  'admin:code:generation': adminCase('admin:code:generation'),
  'admin:user:modify': adminCase('admin:user:modify'),
  'admin:lookup': adminCase('admin:lookup'),
  'admin:guild:modify': adminCase('admin:guild:modify'),
  'admin:audit_log': adminCase('admin:audit_log'),
  'admin:ban:operation': adminCase('admin:ban:operation'),
  'admin:bulk:operation': adminCase('admin:bulk:operation'),
  'webhook:list::guild_id': simple(
    'webhook:list::guild_id',
    () => 'webhook:list:11',
    (client) => call('GET', url('/v1/guilds/11/webhooks'), { headers: client }),
  ),
  'webhook:list::channel_id': simple(
    'webhook:list::channel_id',
    () => 'webhook:list:12',
    (client) => call('GET', url('/v1/channels/12/webhooks'), { headers: client }),
  ),
  'webhook:create::channel_id': simple(
    'webhook:create::channel_id',
    () => 'webhook:create:13',
    (client) => call('POST', url('/v1/channels/13/webhooks'), { body: { name: 'x' }, headers: client }),
  ),
  'webhook:read::webhook_id': simple(
    'webhook:read::webhook_id',
    () => `webhook:read:${hook.webhookId}`,
    (client) => call('GET', url(tokenPath()), { headers: client }),
  ),
  'webhook:update::webhook_id': simple(
    'webhook:update::webhook_id',
    () => 'webhook:update:14',
    (client) => call('PATCH', url('/v1/webhooks/14'), { body: {}, headers: client }),
  ),
  'webhook:delete::webhook_id': simple(
    'webhook:delete::webhook_id',
    () => 'webhook:delete:15',
    (client) => call('DELETE', url('/v1/webhooks/15'), { headers: client }),
  ),
  'channel:messages:read::channel_id': simple(
    'channel:messages:read::channel_id',
    () => 'channel:messages:read:16',
    (client) => call('GET', url('/v1/channels/16/messages'), { headers: client }),
  ),
  'webhook:execute::webhook_id': simple(
    'webhook:execute::webhook_id',
    () => `webhook:execute:${hook.webhookId}`,
    (client) => call('GET', url(tokenPath('/messages/17')), { headers: client }),
  ),
  'webhook:codehost::webhook_id': simple(
    'webhook:codehost::webhook_id',
    () => `webhook:codehost:${hook.webhookId}`,
    (client) =>
      call('POST', url(tokenPath('/github')), {
        body: { zen: 'z', hook_id: 1 },
        headers: { ...client, 'X-GitHub-Event': 'ping' },
      }),
  ),
  'admin:dashboard': simple(
    'admin:dashboard',
    () => 'admin:dashboard',
    async (client) =>
      call('GET', url('/v1/admin/dashboard/'), { headers: { ...client, Cookie: await dashboardCookie() } }),
  ),
  // A route bucket larger than the global one, at a clock that stands still: the global refuses first.
  global: {
    bucket: GLOBAL_RATE_LIMIT,
    key: () => 'global',
    send: (client) => call('GET', url('/v1/.well-known/service'), { headers: client }),
  },
};

/**
 * Sends until a 429. For a bucket that counts toward the global one, the clock moves one global
 * refill per request, so the global bucket never runs out and the route's bucket is what refuses.
 */
async function firstRefusal(name: string, { bucket, send }: Case): Promise<Answer> {
  const stepMs =
    name !== 'global' && bucket.countsTowardGlobal ? GLOBAL_RATE_LIMIT.windowMs / GLOBAL_RATE_LIMIT.limit : 0;
  const client = uniqueClient();
  for (let sent = 0; sent < 2 * bucket.limit + 10; sent += 1) {
    const answer = await send(client);
    if (answer.status === 429) return answer;
    if (stepMs > 0) await clock.advance(stepMs);
  }
  throw new Error(`${name}: no 429 within ${2 * bucket.limit + 10} requests`);
}

describe('every 429 carries the full header set, whichever bucket refused', () => {
  it('has a case for every bucket of the table', () => {
    expect(Object.keys(CASES).sort()).toEqual([...Object.keys(RATE_LIMIT_BUCKETS), 'global'].sort());
  });

  it.each(Object.keys(CASES))('%s', async (name) => {
    const rateCase = CASES[name as keyof typeof CASES];
    const refused = await firstRefusal(name, rateCase);
    const header = (field: string) => refused.headers.get(field);
    const nowSeconds = clock.nowMicros() / 1_000_000;
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED', global: name === 'global' });
    expect(header('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(refused.body.retry_after).toBe(Number(header('retry-after')));
    expect(header('x-ratelimit-limit')).toBe(String(rateCase.bucket.limit));
    expect(header('x-ratelimit-remaining')).toBe('0');
    expect(header('x-ratelimit-reset')).toMatch(/^\d+$/);
    expect(Number(header('x-ratelimit-reset'))).toBeGreaterThanOrEqual(Math.floor(nowSeconds));
    expect(header('x-ratelimit-reset-after')).toMatch(/^\d+\.\d{3}$/);
    expect(Number(header('x-ratelimit-reset-after'))).toBeGreaterThan(0);
    expect(Number(header('x-ratelimit-reset-after'))).toBeLessThanOrEqual(rateCase.bucket.windowMs / 1000);
    expect(header('x-ratelimit-bucket')).toBe(rateCase.key());
    expect(header('x-ratelimit-global')).toBe(String(name === 'global'));
  });
});
