import { describe, expect, it } from 'vitest';
import { hashCredential } from '@switchboard/auth';
import { ACL, LIMITS } from '@switchboard/contracts';
import { failArchive, insertAuditLogs, insertUsers } from '@switchboard/db';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { adminCall, createAdmin, fixtureIds } from './admin-helpers.ts';
import { consoleRequest, inputValue, signInToConsole, type ConsoleClient } from './console-helpers.ts';
import { useGateway } from './helpers.ts';

const environment = useTestEnvironment();
const gateway = useGateway(environment, { RATE_LIMITS_ENABLED: 'false' });

const ALL_BANS = [
  ACL.banIpAdd,
  ACL.banIpCheck,
  ACL.banIpRemove,
  ACL.banEmailAdd,
  ACL.banEmailCheck,
  ACL.banEmailRemove,
];

async function auditEntries(
  adminId: string,
  action: string,
): Promise<Array<{ target_id: string; reason: string | null }>> {
  const { rows } = await gateway.pool.query<{ target_id: string; reason: string | null }>(
    `SELECT target_id, audit_log_reason AS reason FROM audit_logs WHERE admin_user_id = $1 AND action = $2 ORDER BY id`,
    [adminId, action],
  );
  return rows;
}

/** The add form's confirmed second step, for a ban that never expires. */
function confirmedBan(client: ConsoleClient, kind: string, values: string, reason: string) {
  return client.post(`/bans/${kind}/add`, { values, reason, expires: 'never', confirm: 'ban' });
}

describe('console sign-in and headers', () => {
  it('serves the sign-in page under a strict CSP with no inline script or style', async () => {
    const answer = await consoleRequest(gateway.url, 'GET', '/sign-in');
    expect(answer.status).toBe(200);
    const csp = answer.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(answer.headers.get('cache-control')).toBe('no-store');
    // no-referrer would make browsers post `Origin: null`, which the CSRF check refuses.
    expect(answer.headers.get('referrer-policy')).toBe('same-origin');
    const page = answer.body as string;
    expect(page).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(page).not.toMatch(/<style|\sstyle=|\son[a-z]+=/);
    const script = /<script src="([^"]+)"/.exec(page)![1]!;
    const asset = await fetch(`${gateway.url}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toContain('text/javascript');
  });

  it('exchanges a key for an HttpOnly, SameSite=Strict session scoped to the console, audited', async () => {
    const admin = await createAdmin(gateway.pool, [ACL.authenticate, ACL.apiKeyManage]);
    const answer = await consoleRequest(gateway.url, 'POST', '/sign-in', { form: { key: admin.key } });
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('/console/');
    const cookie = answer.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^sb_console_session=[A-Za-z0-9_-]{43}; /);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain('Path=/console');
    expect(cookie).toMatch(/Max-Age=\d+/);
    // Redis holds the session under the token's hash, and never the key in clear.
    const token = cookie.slice(cookie.indexOf('=') + 1, cookie.indexOf(';'));
    const stored = await gateway.redis.get(
      `${gateway.config.REDIS_PREFIX}:console-session:${hashCredential(token).toString('hex')}`,
    );
    expect(stored).not.toBeNull();
    expect(stored).not.toContain(admin.key);
    expect(await auditEntries(admin.adminId, 'create_console_session')).toHaveLength(1);
  });

  it('refuses a wrong key on the sign-in page, and a sign-in from another origin', async () => {
    const wrong = await consoleRequest(gateway.url, 'POST', '/sign-in', { form: { key: 'not-a-key' } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('set-cookie')).toBeNull();
    expect(wrong.body).toContain('role="alert"');
    const admin = await createAdmin(gateway.pool, [ACL.authenticate]);
    const crossSite = await consoleRequest(gateway.url, 'POST', '/sign-in', {
      form: { key: admin.key },
      origin: 'https://evil.example',
    });
    expect(crossSite.status).toBe(403);
    expect(crossSite.headers.get('set-cookie')).toBeNull();
  });

  it('sends a browser without a session to sign in, and signs out for good', async () => {
    const noSession = await consoleRequest(gateway.url, 'GET', '/keys');
    expect(noSession.status).toBe(303);
    expect(noSession.headers.get('location')).toBe('/console/sign-in');
    const admin = await createAdmin(gateway.pool, [ACL.authenticate, ACL.apiKeyManage]);
    const client = await signInToConsole(gateway.url, admin.key);
    expect((await client.get('/keys')).status).toBe(200);
    const signOut = await client.post('/sign-out', {});
    expect(signOut.status).toBe(303);
    expect(signOut.headers.get('set-cookie')).toContain('Max-Age=0');
    expect((await client.get('/keys')).headers.get('location')).toBe('/console/sign-in');
  });

  it('ends a session whose sealed key does not open under its token', async () => {
    const admin = await createAdmin(gateway.pool, [ACL.authenticate, ACL.apiKeyManage]);
    const client = await signInToConsole(gateway.url, admin.key);
    const token = client.cookie.slice(client.cookie.indexOf('=') + 1);
    const recordKey = `${gateway.config.REDIS_PREFIX}:console-session:${hashCredential(token).toString('hex')}`;
    const record = JSON.parse((await gateway.redis.get(recordKey))!) as { sealedKey: string };
    const other = await signInToConsole(gateway.url, admin.key);
    const otherToken = other.cookie.slice(other.cookie.indexOf('=') + 1);
    const otherRecord = JSON.parse(
      (await gateway.redis.get(
        `${gateway.config.REDIS_PREFIX}:console-session:${hashCredential(otherToken).toString('hex')}`,
      ))!,
    ) as { sealedKey: string };
    // Another session's sealed key, valid in itself, moved into this record.
    await gateway.redis.set(recordKey, JSON.stringify({ ...record, sealedKey: otherRecord.sealedKey }), 'KEEPTTL');
    const answer = await client.get('/keys');
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe('/console/sign-in');
    expect(await gateway.redis.exists(recordKey)).toBe(0);
  });

  it('refuses a change whose Origin is not the console', async () => {
    const admin = await createAdmin(gateway.pool, [ACL.authenticate, ACL.banIpAdd, ACL.banIpCheck]);
    const client = await signInToConsole(gateway.url, admin.key);
    const forged = await consoleRequest(gateway.url, 'POST', '/bans/ip/add', {
      cookie: client.cookie,
      origin: 'https://evil.example',
      form: { values: '198.51.100.7', reason: 'csrf', expires: 'never', confirm: 'ban' },
    });
    expect(forged.status).toBe(403);
    const check = await adminCall(gateway.url, {
      method: 'POST',
      path: '/v1/admin/bans/ip/check',
      key: admin.key,
      body: { ip: '198.51.100.7' },
    });
    expect(check.body).toEqual({ banned: false });
  });
});

describe('console ACLs', () => {
  it('shows an operator only the screens and ACLs it holds, and the API refuses the rest', async () => {
    const admin = await createAdmin(gateway.pool, [ACL.authenticate, ACL.apiKeyManage, ACL.banIpCheck]);
    const client = await signInToConsole(gateway.url, admin.key);
    const home = (await client.get('/')).body as string;
    expect(home).toContain('API keys');
    expect(home).toContain('IP bans');
    expect(home).not.toContain('Email bans');

    const form = (await client.get('/keys/new')).body as string;
    expect(form).toContain('value="ban:ip:check"');
    expect(form).toContain('value="admin_api_key:manage"');
    expect(form).not.toContain('value="ban:ip:add"');
    expect(form).not.toContain('value="*"');
    expect(form).not.toMatch(/type="checkbox"[^>]*checked/);

    // IP list: no add form without ban:ip:add, no remove links without ban:ip:remove.
    const ipPage = (await client.get('/bans/ip')).body as string;
    expect(ipPage).not.toContain('Add a ban');
    expect(ipPage).not.toContain('/bans/ip/remove');

    const emailPage = await client.get('/bans/email');
    expect(emailPage.status).toBe(403);
    expect(emailPage.body).toContain('Missing ACL: ban:email:check.');

    const add = await confirmedBan(client, 'ip', '192.0.2.99', 'not allowed');
    expect(add.status).toBe(403);
    expect(add.body).toContain('Missing ACL: ban:ip:add.');
    expect(await auditEntries(admin.adminId, 'ban_ip')).toEqual([]);
  });
});

describe('console API keys', () => {
  it('creates a key with the ticked ACLs and an expiry, and shows its secret exactly once', async () => {
    const admin = await createAdmin(gateway.pool, [ACL.authenticate, ACL.apiKeyManage, ACL.banIpCheck]);
    const client = await signInToConsole(gateway.url, admin.key);
    const created = await client.post('/keys/new', {
      name: 'ops <laptop>',
      expires: '7',
      acls: [ACL.authenticate, ACL.banIpCheck],
      reason: 'on-call rotation',
    });
    expect(created.status).toBe(303);
    const shownAt = created.headers.get('location')!;
    expect(shownAt).toMatch(/^\/console\/keys\/created\//);

    const shown = await client.get(shownAt.slice('/console'.length));
    expect(shown.status).toBe(200);
    expect(shown.body).toContain('ops &lt;laptop&gt;');
    const secret = inputValue(shown.body as string, 'secret')!;
    const check = await adminCall(gateway.url, {
      method: 'POST',
      path: '/v1/admin/bans/ip/check',
      key: secret,
      body: { ip: '192.0.2.1' },
    });
    expect(check.status).toBe(200);

    const again = await client.get(shownAt.slice('/console'.length));
    expect(again.status).toBe(410);
    expect(again.body).not.toContain(secret);

    const list = await adminCall(gateway.url, { method: 'GET', path: '/v1/admin/api-keys', key: admin.key });
    const key = (list.body as Array<{ name: string; acls: string[]; expires_at: string | null }>).find(
      (k) => k.name === 'ops <laptop>',
    )!;
    expect(key.acls.sort()).toEqual([ACL.authenticate, ACL.banIpCheck].sort());
    const days = (new Date(key.expires_at!).getTime() - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.9);
    expect(days).toBeLessThanOrEqual(7);
    expect((await auditEntries(admin.adminId, 'create_admin_api_key')).map((e) => e.reason)).toEqual([
      'on-call rotation',
    ]);
  });

  it('refuses an ACL the operator does not hold, through the API', async () => {
    const admin = await createAdmin(gateway.pool, [ACL.authenticate, ACL.apiKeyManage]);
    const client = await signInToConsole(gateway.url, admin.key);
    const refused = await client.post('/keys/new', { name: 'too much', expires: '7', acls: [ACL.banIpAdd] });
    expect(refused.status).toBe(403);
    expect(refused.body).toContain('Missing ACL: ban:ip:add.');
  });

  it('revokes a key only after the confirmation step, with the reason audited', async () => {
    const admin = await createAdmin(gateway.pool, [ACL.authenticate, ACL.apiKeyManage]);
    const client = await signInToConsole(gateway.url, admin.key);
    const created = await client.post('/keys/new', { name: 'short-lived', expires: '1', acls: [ACL.authenticate] });
    await client.get(created.headers.get('location')!.slice('/console'.length));
    const list = await adminCall(gateway.url, { method: 'GET', path: '/v1/admin/api-keys', key: admin.key });
    const keyId = (list.body as Array<{ key_id: string; name: string }>).find((k) => k.name === 'short-lived')!.key_id;

    const keysPage = (await client.get('/keys')).body as string;
    expect(keysPage).toContain(`/console/keys/${keyId}/revoke`);

    // A post without the confirmation page's field is sent to that page; the key lives on.
    const unconfirmed = await client.post(`/keys/${keyId}/revoke`, {});
    expect(unconfirmed.status).toBe(303);
    expect(unconfirmed.headers.get('location')).toBe(`/console/keys/${keyId}/revoke`);
    const confirmPage = await client.get(`/keys/${keyId}/revoke`);
    expect(confirmPage.status).toBe(200);
    expect(confirmPage.body).toContain('Revoke the key');
    const stillThere = await adminCall(gateway.url, { method: 'GET', path: '/v1/admin/api-keys', key: admin.key });
    expect((stillThere.body as Array<{ key_id: string }>).map((k) => k.key_id)).toContain(keyId);

    const revoked = await client.post(`/keys/${keyId}/revoke`, { confirm: 'revoke', reason: 'laptop lost' });
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get('location')).toBe('/console/keys?done=key-revoked');
    const after = await adminCall(gateway.url, { method: 'GET', path: '/v1/admin/api-keys', key: admin.key });
    expect((after.body as Array<{ key_id: string }>).map((k) => k.key_id)).not.toContain(keyId);
    expect(await auditEntries(admin.adminId, 'delete_admin_api_key')).toEqual([
      { target_id: keyId, reason: 'laptop lost' },
    ]);
    expect((await client.get('/keys?done=key-revoked')).body).toContain('role="status"');
  });
});

describe('console bans', () => {
  it('adds an IP ban after review, checks, pages, searches and removes it, with reasons audited', async () => {
    const admin = await createAdmin(gateway.pool, [ACL.authenticate, ...ALL_BANS]);
    const client = await signInToConsole(gateway.url, admin.key);
    const reason = 'abuse <script>alert(1)</script>';

    const review = await client.post('/bans/ip/add', { values: '203.0.113.7', reason, expires: '86400' });
    expect(review.status).toBe(200);
    expect(review.body).toContain('name="confirm" value="ban"');
    expect(review.body).not.toContain('<script>alert(1)</script>');
    expect(review.body).toContain('abuse &lt;script&gt;');
    expect(await auditEntries(admin.adminId, 'ban_ip')).toEqual([]);

    const added = await client.post('/bans/ip/add', {
      values: '203.0.113.7',
      reason,
      expires: '86400',
      confirm: 'ban',
    });
    expect(added.status).toBe(303);
    expect(added.headers.get('location')).toBe('/console/bans/ip?done=ban-added');
    expect(await auditEntries(admin.adminId, 'ban_ip')).toEqual([{ target_id: '203.0.113.7', reason }]);

    const checked = (await client.get('/bans/ip?check=203.0.113.7')).body as string;
    expect(checked).toContain('Banned: <code>203.0.113.7</code>');
    const range = (await client.get(`/bans/ip?check=${encodeURIComponent('203.0.113.0/24')}`)).body as string;
    expect(range).toContain('Not banned');

    // Three more, then page through two at a time: every ban is reached by "Next page".
    await confirmedBan(client, 'ip', '203.0.113.8\n203.0.113.9\n203.0.113.10', 'batch');
    const seen = new Set<string>();
    let path: string | null = '/bans/ip?limit=2';
    let pages = 0;
    while (path !== null && pages < 10) {
      const body = (await client.get(path)).body as string;
      for (const match of body.matchAll(/<td><code>(203\.0\.113\.\d+)<\/code><\/td>/g)) seen.add(match[1]!);
      const next = /<a href="\/console(\/bans\/ip\?[^"]+)" rel="next">/.exec(body);
      path = next ? next[1]!.replace(/&amp;/g, '&') : null;
      pages++;
    }
    expect(pages).toBe(2);
    expect([...seen].sort()).toEqual(['203.0.113.10', '203.0.113.7', '203.0.113.8', '203.0.113.9']);

    // One a page: Next to the last page, then Previous back to the first, page by page.
    const banOn = (body: string) => /<td><code>(203\.0\.113\.\d+)<\/code><\/td>/.exec(body)![1]!;
    const linkTo = (body: string, rel: string) => {
      const match = new RegExp(`<a href="/console(/bans/ip\\?[^"]+)" rel="${rel}">`).exec(body);
      return match ? match[1]!.replace(/&amp;/g, '&') : null;
    };
    let body = (await client.get('/bans/ip?limit=1')).body as string;
    expect(linkTo(body, 'prev')).toBeNull();
    const forward = [banOn(body)];
    for (let next = linkTo(body, 'next'); next !== null; next = linkTo(body, 'next')) {
      body = (await client.get(next)).body as string;
      forward.push(banOn(body));
    }
    expect(forward).toHaveLength(4);
    const backward = [banOn(body)];
    for (let previous = linkTo(body, 'prev'); previous !== null; previous = linkTo(body, 'prev')) {
      body = (await client.get(previous)).body as string;
      backward.push(banOn(body));
    }
    expect(backward).toEqual([...forward].reverse());
    expect(body).not.toContain('First page');

    // Search: the list route's `contains`, kept by the pager.
    const searched = (await client.get('/bans/ip?q=113.1&limit=1')).body as string;
    expect(searched).toContain('Bans containing “113.1”');
    expect(searched).toContain('<td><code>203.0.113.10</code></td>');
    expect(searched).not.toContain('<td><code>203.0.113.8</code></td>');
    expect(searched).toContain('Last page.');
    const none = (await client.get('/bans/ip?q=no-such-ban')).body as string;
    expect(none).toContain('No ban contains “no-such-ban”.');

    const confirmPage = await client.get('/bans/ip/remove?value=203.0.113.7');
    expect(confirmPage.body).toContain('name="value" value="203.0.113.7"');
    const unconfirmed = await client.post('/bans/ip/remove', { value: '203.0.113.7' });
    expect(unconfirmed.status).toBe(200);
    expect(unconfirmed.body).toContain('Remove the ban');
    expect(await auditEntries(admin.adminId, 'unban_ip')).toEqual([]);

    const removed = await client.post('/bans/ip/remove', {
      value: '203.0.113.7',
      reason: 'appeal granted',
      confirm: 'remove',
    });
    expect(removed.status).toBe(303);
    expect(removed.headers.get('location')).toBe('/console/bans/ip?done=ban-removed');
    expect(await auditEntries(admin.adminId, 'unban_ip')).toEqual([
      { target_id: '203.0.113.7', reason: 'appeal granted' },
    ]);
    expect((await client.get('/bans/ip?check=203.0.113.7')).body).toContain('Not banned');
  });

  it('adds and removes an email ban the same way, and shows the API refusing a bad value', async () => {
    const admin = await createAdmin(gateway.pool, [ACL.authenticate, ...ALL_BANS]);
    const client = await signInToConsole(gateway.url, admin.key);
    const bad = await confirmedBan(client, 'email', 'not an email', 'spam');
    expect(bad.status).toBe(400);
    expect(bad.body).toContain('role="alert"');
    const added = await confirmedBan(client, 'email', 'spammer@example.com', 'spam');
    expect(added.status).toBe(303);
    const list = (await client.get('/bans/email')).body as string;
    expect(list).toContain('<code>spammer@example.com</code>');
    expect(list).toContain('Never expires');
    const removed = await client.post('/bans/email/remove', {
      value: 'spammer@example.com',
      reason: 'mistake',
      confirm: 'remove',
    });
    expect(removed.status).toBe(303);
    expect(await auditEntries(admin.adminId, 'unban_email')).toEqual([
      { target_id: 'spammer@example.com', reason: 'mistake' },
    ]);
  });
});

/** The CSV's records, split on CRLF outside quotes (cells keep their quotes). */
function csvRecords(text: string): string[] {
  const records: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '"') quoted = !quoted;
    if (!quoted && char === '\r' && text[i + 1] === '\n') {
      records.push(current);
      current = '';
      i++;
      continue;
    }
    current += char;
  }
  return records;
}

describe('console audit log', () => {
  it('is neither shown nor served to an operator without audit:view', async () => {
    const admin = await createAdmin(gateway.pool, [ACL.authenticate, ACL.banIpCheck]);
    const client = await signInToConsole(gateway.url, admin.key);
    expect((await client.get('/')).body).not.toContain('Audit log');
    const screen = await client.get('/audit');
    expect(screen.status).toBe(403);
    expect(screen.body).toContain('Missing ACL: audit_log:view.');
    const csv = await client.get('/audit/export.csv');
    expect(csv.status).toBe(403);
    expect(csv.headers.get('content-type')).toContain('text/html');
    expect((await consoleRequest(gateway.url, 'GET', '/audit')).headers.get('location')).toBe('/console/sign-in');
  });

  it('passes every filter and the search with its order to the API, names the operator, pages', async () => {
    const admin = await createAdmin(gateway.pool, [ACL.authenticate, ACL.auditLogView, ...ALL_BANS]);
    const client = await signInToConsole(gateway.url, admin.key);
    expect((await client.get('/')).body).toContain('Audit log');
    for (const [ip, reason] of [
      ['192.0.2.61', 'spam wave from the north'],
      ['192.0.2.62', 'north north north'],
      ['192.0.2.63', 'unrelated'],
    ] as const)
      expect((await confirmedBan(client, 'ip', ip, reason)).status).toBe(303);
    const mine = `admin_user_id=${admin.adminId}`;

    const byTarget = (await client.get(`/audit?${mine}&action=ban_ip&target_type=ip&target_id=192.0.2.62`))
      .body as string;
    expect(byTarget).toContain('north north north');
    expect(byTarget).not.toContain('spam wave');
    expect(byTarget).toContain('(you)');
    expect(byTarget).toMatch(/aria-expanded="false" aria-controls="entry-\d+"/);

    const relevant = (await client.get(`/audit?${mine}&q=north&sort=relevance`)).body as string;
    expect(relevant).not.toContain('unrelated');
    expect(relevant.indexOf('north north north')).toBeLessThan(relevant.indexOf('spam wave from the north'));
    expect(relevant).toContain('<option value="relevance" selected>');
    const oldest = (await client.get(`/audit?${mine}&q=north&sort=oldest`)).body as string;
    expect(oldest.indexOf('spam wave from the north')).toBeLessThan(oldest.indexOf('north north north'));

    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await client.get(`/audit?${mine}&from=${tomorrow}`)).body).toContain('No entry matches');
    const badRange = await client.get(`/audit?${mine}&from=${tomorrow}&to=2020-01-01`);
    expect(badRange.status).toBe(400);
    expect(badRange.body).toContain('`to` must not be before `from`.');
    expect(inputValue(badRange.body as string, 'from')).toBe(tomorrow);

    const first = (await client.get(`/audit?${mine}&action=ban_ip&limit=2`)).body as string;
    expect(first).toContain('Entries 1–2 of 3');
    const next = /href="([^"]+)" rel="next"/.exec(first)![1]!.replace(/&amp;/g, '&');
    const second = await consoleRequest(gateway.url, 'GET', next.replace('/console', ''), { cookie: client.cookie });
    expect(second.body).toContain('Entries 3–3 of 3');
    expect(second.body).toContain('Last page.');
  });

  it('exports the filter as CSV, quoted, with formulas disarmed', async () => {
    const admin = await createAdmin(gateway.pool, [ACL.authenticate, ACL.auditLogView, ...ALL_BANS]);
    const client = await signInToConsole(gateway.url, admin.key);
    const reason = '=HYPERLINK("http://evil.example"), said "he"';
    expect((await confirmedBan(client, 'ip', '192.0.2.71', reason)).status).toBe(303);
    expect((await confirmedBan(client, 'ip', '192.0.2.72', '-1+2')).status).toBe(303);
    expect((await confirmedBan(client, 'email', 'csv@example.com', 'plain')).status).toBe(303);

    const answer = await client.get(`/audit/export.csv?admin_user_id=${admin.adminId}&action=ban_ip`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toContain('text/csv');
    expect(answer.headers.get('content-disposition')).toContain('attachment');
    const records = csvRecords(answer.body as string);
    expect(records[0]).toBe('log_id,created_at,admin_user_id,api_key_id,action,target_type,target_id,reason,metadata');
    expect(records).toHaveLength(3);
    const joined = records.join('\n');
    expect(joined).toContain(`,"'=HYPERLINK(""http://evil.example""), said ""he""",`);
    expect(joined).toContain(`,'-1+2,`);
    expect(joined).not.toContain('csv@example.com');
    expect(joined).toContain(`,${admin.adminId},${admin.keyId},ban_ip,ip,192.0.2.71,`);
  });

  it('exports a filter longer than one API page, each entry once', async () => {
    const admin = await createAdmin(gateway.pool, [ACL.authenticate, ACL.auditLogView]);
    const client = await signInToConsole(gateway.url, admin.key);
    const entries = Array.from({ length: LIMITS.auditLogs.list.max + 5 }, (_, i) => ({
      id: fixtureIds.next(),
      adminUserId: admin.adminId,
      apiKeyId: admin.keyId,
      targetType: 'user',
      targetId: String(i),
      action: 'csv_paging',
      reason: null,
      metadata: {},
    }));
    await insertAuditLogs(gateway.pool, entries);
    const answer = await client.get(`/audit/export.csv?admin_user_id=${admin.adminId}&action=csv_paging`);
    expect(answer.status).toBe(200);
    const ids = csvRecords(answer.body as string)
      .slice(1)
      .map((record) => record.split(',')[0]);
    expect(new Set(ids).size).toBe(entries.length);
    expect(ids.sort()).toEqual(entries.map((entry) => entry.id).sort());
  });
});

async function seededUser(): Promise<string> {
  const id = fixtureIds.next();
  await insertUsers(gateway.pool, [{ id, username: `u${id.slice(-8)}` }]);
  return id;
}

describe('console archives', () => {
  it('is neither shown nor served to an operator without archive ACLs', async () => {
    const admin = await createAdmin(gateway.pool, [ACL.authenticate, ACL.auditLogView]);
    const client = await signInToConsole(gateway.url, admin.key);
    expect((await client.get('/')).body).not.toContain('Archives');
    const screen = await client.get('/archives');
    expect(screen.status).toBe(403);
    expect(screen.body).toContain('Missing ACL: archive:view_all.');
    expect(screen.body).not.toContain('Start the export');
    const trigger = await client.post('/archives/trigger', {
      subject_type: 'user',
      subject_id: await seededUser(),
      reason: 'not allowed',
    });
    expect(trigger.status).toBe(403);
    expect(trigger.body).toContain('Missing ACL: archive:trigger:user.');
    expect((await consoleRequest(gateway.url, 'GET', '/archives')).headers.get('location')).toBe('/console/sign-in');
  });

  it('triggers an export with its reason audited; view_all lists it for others, filtered by subject and status', async () => {
    const requester = await createAdmin(gateway.pool, [ACL.authenticate, ACL.archiveTriggerUser]);
    const client = await signInToConsole(gateway.url, requester.key);
    const userId = await seededUser();
    const form = (await client.get('/archives')).body as string;
    expect(form).toContain('Start the export');
    expect(form).not.toContain('<option value="guild"');

    const missingReason = await client.post('/archives/trigger', { subject_type: 'user', subject_id: userId });
    expect(missingReason.status).toBe(400);
    expect(missingReason.body).toContain('Give a reason.');
    expect(inputValue(missingReason.body as string, 'trigger-id')).toBe(userId);

    const triggered = await client.post('/archives/trigger', {
      subject_type: 'user',
      subject_id: userId,
      reason: 'subject access request #7',
    });
    expect(triggered.status).toBe(303);
    const listed = await consoleRequest(
      gateway.url,
      'GET',
      triggered.headers.get('location')!.replace('/console', ''),
      { cookie: client.cookie },
    );
    expect(listed.body).toContain('The archive is queued');
    const archiveId = new RegExp(
      `<tr data-archive="(\\d+)" data-status-url="/console/archives/user/${userId}/(\\d+)/status"`,
    ).exec(listed.body as string)![1]!;
    expect(listed.body).toContain('(you)');
    const { rows } = await gateway.pool.query<{ target_id: string; reason: string }>(
      `SELECT target_id, audit_log_reason AS reason FROM audit_logs WHERE admin_user_id = $1 AND action = 'trigger_user_archive'`,
      [requester.adminId],
    );
    expect(rows).toEqual([{ target_id: archiveId, reason: 'subject access request #7' }]);

    const status = await client.get(`/archives/user/${userId}/${archiveId}/status`);
    expect(status.status).toBe(200);
    expect(status.body).toMatchObject({ status: 'queued', status_label: 'Queued', download_url: null, error: '' });
    expect((await client.get(`/archives/user/${userId}/${archiveId}/download`)).status).toBe(400);

    const viewer = await createAdmin(gateway.pool, [ACL.authenticate, ACL.archiveViewAll]);
    const other = await signInToConsole(gateway.url, viewer.key);
    const all = (await other.get('/archives')).body as string;
    expect(all).toContain(`<code>${archiveId}</code>`);
    expect(all).not.toContain('Start the export');
    expect(all).toContain('<option value="all" selected>');
    expect((await other.get(`/archives?subject_type=user&subject_id=${userId}`)).body).toContain(archiveId);
    expect((await other.get(`/archives?subject_type=user&subject_id=${userId}&status=failed`)).body).toContain(
      'No archive matches this filter.',
    );
    expect((await other.get(`/archives?subject_type=guild`)).body).not.toContain(archiveId);
    expect((await other.get(`/archives?mine=on`)).body).not.toContain(archiveId);
    expect((await other.get(`/archives?requested_by=${requester.adminId}`)).body).toContain(archiveId);

    // A failed export says so in words, with its reason, and is no longer polled.
    await failArchive(gateway.pool, archiveId, 'Storage refused the upload');
    const failed = (await other.get(`/archives?subject_type=user&subject_id=${userId}&status=failed`)).body as string;
    expect(failed).toContain('>Failed</span>');
    expect(failed).toContain('Storage refused the upload');
    expect(failed).not.toContain('data-status-url');
    expect((await client.get(`/archives/user/${userId}/${archiveId}/status`)).body).toMatchObject({
      status: 'failed',
      error: 'Storage refused the upload',
    });
  });
});
