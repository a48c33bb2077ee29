import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashCredential } from '@switchboard/auth';
import { ACL, QUEUES } from '@switchboard/contracts';
import { deleteAdminApiKey } from '@switchboard/db';
import { bullQueue } from '@switchboard/queue';
import { call, type Answer } from '@switchboard/testkit/http';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { adminCall, createAdmin, insertKey, signInToDashboard, type AdminFixture } from './admin-helpers.ts';
import { failedJob } from './failed-jobs.ts';
import { useGateway } from './helpers.ts';

const environment = useTestEnvironment();
const gateway = useGateway(environment, { RATE_LIMITS_ENABLED: 'false' });
// A second replica on the same Redis and database: sessions must hold on every replica.
const replica = useGateway(environment, { RATE_LIMITS_ENABLED: 'false' });

const BOARD = '/v1/admin/dashboard';
const admins = {} as Record<'reader' | 'writer' | 'outsider', AdminFixture>;
let queue: Queue;

const signIn = (key: string) => signInToDashboard(gateway.url, key);

/** A dashboard request with the session cookie (and an Origin when given). */
function board(
  method: string,
  path: string,
  options: { cookie?: string; origin?: string; url?: string } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.cookie) headers['Cookie'] = options.cookie;
  if (options.origin) headers['Origin'] = options.origin;
  return call(method, `${options.url ?? gateway.url}${BOARD}${path}`, { headers, redirect: 'manual' });
}

function sessionKey(cookie: string): string {
  const token = cookie.slice(cookie.indexOf('=') + 1);
  return `${gateway.config.REDIS_PREFIX}:dashboard-session:${hashCredential(token).toString('hex')}`;
}

beforeAll(async () => {
  admins.reader = await createAdmin(gateway.pool, [ACL.authenticate, ACL.jobsRead]);
  admins.writer = await createAdmin(gateway.pool, [ACL.authenticate, ACL.jobsRead, ACL.jobsWrite]);
  admins.outsider = await createAdmin(gateway.pool, [ACL.authenticate, ACL.auditLogView]);
  queue = bullQueue(QUEUES.bulkOperations, gateway.redis, gateway.config.REDIS_PREFIX);
});

afterAll(async () => {
  await queue?.close();
});

describe('dashboard sign-in', () => {
  it('exchanges a jobs:read key for an HttpOnly, SameSite=Strict cookie scoped to the dashboard, kept in Redis with a TTL, and audited', async () => {
    const { answer, cookie } = await signIn(admins.reader.key);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      dashboard_url: `${gateway.config.endpoints.api}${BOARD}/`,
      expires_at: expect.any(String),
    });
    const setCookie = answer.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^sb_dashboard_session=[A-Za-z0-9_-]{43}; /);
    expect(setCookie).toContain(`Path=${BOARD}`);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).toContain('Max-Age=900');
    // http in tests: Secure only when PUBLIC_BASE_URL is https.
    expect(setCookie).not.toContain('Secure');
    const ttl = await gateway.redis.ttl(sessionKey(cookie));
    expect(ttl).toBeGreaterThan(800);
    expect(ttl).toBeLessThanOrEqual(900);
    const { rows } = await gateway.pool.query(
      'SELECT action, target_type, target_id FROM audit_logs WHERE admin_user_id = $1',
      [admins.reader.adminId],
    );
    expect(rows).toContainEqual({
      action: 'create_dashboard_session',
      target_type: 'admin_api_key',
      target_id: admins.reader.keyId,
    });
  });

  it('never outlives its key', async () => {
    const { key } = await insertKey(gateway.pool, admins.reader.adminId, [ACL.jobsRead], {
      expiresAt: new Date(Date.now() + 120_000),
    });
    const { answer, cookie } = await signIn(key);
    expect(answer.status).toBe(200);
    const maxAge = Number(/Max-Age=(\d+)/.exec(answer.headers.get('set-cookie')!)![1]);
    expect(maxAge).toBeGreaterThan(60);
    expect(maxAge).toBeLessThanOrEqual(120);
    expect(await gateway.redis.ttl(sessionKey(cookie))).toBeLessThanOrEqual(120);
  });

  it('refuses a key without jobs:read (403 MISSING_ACL) and a request without a key (401)', async () => {
    const refused = await signIn(admins.outsider.key);
    expect(refused.answer.status).toBe(403);
    expect(refused.answer.body).toMatchObject({ code: 'MISSING_ACL', acl: 'jobs:read' });
    expect(refused.cookie).toBe('');
    expect((await adminCall(gateway.url, { method: 'POST', path: `${BOARD}/session`, body: {} })).status).toBe(401);
  });

  it('serves the login page to anyone, and sends a browser without a session there (the API answers 401)', async () => {
    const login = await board('GET', '/login');
    expect(login.status).toBe(200);
    expect(login.body).toContain('Admin API key');
    expect(login.headers.get('x-frame-options')).toBe('DENY');
    const page = await board('GET', '/');
    expect(page.status).toBe(302);
    expect(page.headers.get('location')).toBe(`${BOARD}/login`);
    const api = await board('GET', '/api/queues');
    expect(api.status).toBe(401);
    expect(api.body).toMatchObject({ code: 'UNAUTHORIZED' });
    expect((await board('GET', '/api/queues', { cookie: 'sb_dashboard_session=not-a-session' })).status).toBe(401);
  });
});

describe('dashboard session', () => {
  it('shows every queue, on every replica', async () => {
    const { cookie } = await signIn(admins.reader.key);
    for (const url of [gateway.url, replica.url]) {
      const answer = await board('GET', '/api/queues', { cookie, url });
      expect(answer.status).toBe(200);
      expect(answer.body.queues.map((q: { name: string }) => q.name).sort()).toEqual(Object.values(QUEUES).sort());
      expect(answer.body.queues.every((q: { readOnlyMode: boolean }) => q.readOnlyMode)).toBe(true);
    }
    expect((await board('GET', '/', { cookie })).status).toBe(200);
  });

  it('refuses an expired or deleted session', async () => {
    const { cookie } = await signIn(admins.reader.key);
    expect((await board('GET', '/api/queues', { cookie })).status).toBe(200);
    // Redis expiring the key is what ends a session; deleting it is the same, without the wait.
    await gateway.redis.del(sessionKey(cookie));
    expect((await board('GET', '/api/queues', { cookie })).status).toBe(401);
    expect((await board('GET', '/', { cookie })).status).toBe(302);
  });

  it('re-checks the key on every request: ACLs taken away are 403, a deleted key ends the session', async () => {
    const admin = await createAdmin(gateway.pool, [ACL.authenticate, ACL.jobsRead]);
    const { cookie } = await signIn(admin.key);
    expect((await board('GET', '/api/queues', { cookie })).status).toBe(200);
    await gateway.pool.query('UPDATE admin_users SET acls = $2 WHERE id = $1', [admin.adminId, [ACL.authenticate]]);
    const stripped = await board('GET', '/api/queues', { cookie });
    expect(stripped.status).toBe(403);
    expect(stripped.body).toMatchObject({ code: 'MISSING_ACL', acl: 'jobs:read' });
    await gateway.pool.query('UPDATE admin_users SET acls = $2 WHERE id = $1', [
      admin.adminId,
      [ACL.authenticate, ACL.jobsRead],
    ]);
    expect((await board('GET', '/api/queues', { cookie })).status).toBe(200);
    await deleteAdminApiKey(gateway.pool, { id: admin.keyId, adminUserId: admin.adminId });
    expect((await board('GET', '/api/queues', { cookie })).status).toBe(401);
    expect(await gateway.redis.exists(sessionKey(cookie))).toBe(0);
  });

  it('signs out: the session is gone, the cookie cleared', async () => {
    const { cookie } = await signIn(admins.reader.key);
    expect((await board('POST', '/logout', { cookie })).status).toBe(403);
    const out = await board('POST', '/logout', { cookie, origin: gateway.url });
    expect(out.status).toBe(303);
    expect(out.headers.get('location')).toBe(`${BOARD}/login`);
    expect(out.headers.get('set-cookie')).toContain('Max-Age=0');
    expect(await gateway.redis.exists(sessionKey(cookie))).toBe(0);
    expect((await board('GET', '/api/queues', { cookie })).status).toBe(401);
  });
});

describe('dashboard reads', () => {
  it('refuses jobsPerPage above 100 and absurd pages with 400 at the parameter, before the board runs', async () => {
    const { cookie } = await signIn(admins.reader.key);
    const read = (query: string) =>
      board('GET', `/api/queues?activeQueue=${QUEUES.bulkOperations}&status=failed${query}`, { cookie });
    for (const [query, path] of [
      ['&jobsPerPage=1000000', 'jobsPerPage'],
      ['&jobsPerPage=101', 'jobsPerPage'],
      ['&jobsPerPage=0', 'jobsPerPage'],
      ['&page=1e9', 'page'],
      ['&page=-1', 'page'],
    ]) {
      const answer = await read(query!);
      expect([answer.status, answer.body.code], query).toEqual([400, 'INVALID_FORM_BODY']);
      expect(answer.body.errors[0].path).toBe(path);
    }
    expect((await read('&jobsPerPage=100&page=2')).status).toBe(200);
    expect((await read('')).status).toBe(200);
  });
});

describe('dashboard changes', () => {
  it('refuses a retry to a key without jobs:write (its board is read-only too)', async () => {
    const id = await failedJob(queue, environment.redisUrl, 'read-only-retry');
    const { cookie } = await signIn(admins.reader.key);
    const answer = await board('PUT', `/api/queues/${QUEUES.bulkOperations}/${id}/retry`, {
      cookie,
      origin: gateway.url,
    });
    expect(answer.status).toBe(403);
    expect(answer.body).toMatchObject({ code: 'MISSING_ACL', acl: 'jobs:write' });
    expect(await queue.getJobState(id)).toBe('failed');
  });

  it('refuses a change without the dashboard as Origin (CSRF), from a writer too', async () => {
    const id = await failedJob(queue, environment.redisUrl, 'cross-site-retry');
    const { cookie } = await signIn(admins.writer.key);
    const path = `/api/queues/${QUEUES.bulkOperations}/${id}/retry`;
    for (const origin of [undefined, 'https://evil.example', 'null']) {
      const answer = await board('PUT', path, { cookie, origin });
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({ code: 'FORBIDDEN' });
    }
    expect(await queue.getJobState(id)).toBe('failed');
  });

  it('lets a jobs:write key retry from its writable board, and audits the change', async () => {
    const id = await failedJob(queue, environment.redisUrl, 'dashboard-retry');
    const { cookie } = await signIn(admins.writer.key);
    const queues = await board('GET', '/api/queues', { cookie });
    expect(queues.body.queues.every((q: { readOnlyMode: boolean }) => !q.readOnlyMode)).toBe(true);
    const answer = await board('PUT', `/api/queues/${QUEUES.bulkOperations}/${id}/retry`, {
      cookie,
      origin: gateway.url,
    });
    expect(answer.status).toBe(204);
    expect(await queue.getJobState(id)).toBe('waiting');
    const { rows } = await gateway.pool.query(
      'SELECT action, target_type, target_id, metadata FROM audit_logs WHERE admin_user_id = $1 AND target_type = $2',
      [admins.writer.adminId, 'job'],
    );
    expect(rows).toEqual([
      {
        action: 'retry_job',
        target_type: 'job',
        target_id: `${QUEUES.bulkOperations}:${id}`,
        metadata: { queue: QUEUES.bulkOperations, job_id: id, via: 'dashboard' },
      },
    ]);
    // A change bull-board refuses (the job is no longer failed) leaves no entry.
    const again = await board('PUT', `/api/queues/${QUEUES.bulkOperations}/${id}/retry`, {
      cookie,
      origin: gateway.url,
    });
    expect(again.status).toBe(400);
    const after = await gateway.pool.query(
      'SELECT count(*)::int AS n FROM audit_logs WHERE admin_user_id = $1 AND target_type = $2',
      [admins.writer.adminId, 'job'],
    );
    expect(after.rows[0].n).toBe(1);
  });

  it('refuses a change it does not know how to audit, and adding jobs by hand', async () => {
    const { cookie } = await signIn(admins.writer.key);
    expect((await board('POST', '/api/queues/not-a-route', { cookie, origin: gateway.url })).status).toBe(404);
    const added = await call('POST', `${gateway.url}${BOARD}/api/queues/${QUEUES.bulkOperations}/add`, {
      headers: { Cookie: cookie, Origin: gateway.url },
      body: { name: 'by-hand', data: {} },
    });
    expect(added.status).toBe(403);
    expect(added.body).toMatchObject({ code: 'FORBIDDEN' });
    expect((await queue.getJobs(['waiting', 'prioritized', 'delayed'])).map((job) => job.name)).not.toContain(
      'by-hand',
    );
  });
});
