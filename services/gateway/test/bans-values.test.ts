import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { createAdmin, type AdminFixture } from './admin-helpers.ts';
import { banCaller, type AuditRow, type BanCaller } from './bans-helpers.ts';
import { startGateway, type RunningGateway } from './helpers.ts';

const environment = useTestEnvironment();
let gateway: RunningGateway;
let admin: AdminFixture;
let bans: BanCaller;

beforeAll(async () => {
  // Many requests from one admin: limits off explicitly (their own test turns them on).
  gateway = await startGateway(environment, { RATE_LIMITS_ENABLED: 'false' });
  admin = await createAdmin(gateway.pool, ['*']);
  bans = banCaller(gateway.url, admin.key);
});

afterAll(async () => {
  await gateway?.close();
});

async function auditRows(action: string, metadataKey: string, value: string): Promise<AuditRow[]> {
  const { rows } = await gateway.pool.query<AuditRow>(
    `SELECT admin_user_id::text, target_type, target_id, action, audit_log_reason, metadata
     FROM audit_logs WHERE action = $1 AND metadata ->> $2 = $3 ORDER BY id`,
    [action, metadataKey, value],
  );
  return rows;
}

describe('email bans', () => {
  it('adds (204), checks case-insensitively with metadata, removes (204), idempotently', async () => {
    expect((await bans('email', 'add', { email: 'Spammer@Example.COM', reason: 'spam waves' })).status).toBe(204);
    expect((await bans('email', 'add', { email: 'spammer@example.com', reason: 'spam waves' })).status).toBe(204);
    const check = await bans('email', 'check', { email: 'SPAMMER@example.com' });
    expect(check.status).toBe(200);
    expect(check.body).toEqual({
      banned: true,
      reason: 'spam waves',
      expires_at: null,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
      matched: 'spammer@example.com',
    });
    expect((await bans('email', 'remove', { email: 'sPaMmEr@example.com' })).status).toBe(204);
    expect((await bans('email', 'remove', { email: 'spammer@example.com' })).status).toBe(204);
    expect((await bans('email', 'check', { email: 'spammer@example.com' })).body).toEqual({ banned: false });
  });

  it('takes the reason from X-Audit-Log-Reason when the body has none, and audits each value once', async () => {
    // UTF-8 bytes on the wire (fetch sends header text as latin1): U+202E is stripped, then trimmed.
    const headers = { 'X-Audit-Log-Reason': Buffer.from('  ticket\u202e 4711 ', 'utf8').toString('latin1') };
    expect(
      (await bans('email', 'add', { email: 'a1@audit.test', emails: ['A2@audit.test', 'a1@audit.test'] }, headers))
        .status,
    ).toBe(204);
    expect((await bans('email', 'check', { email: 'a2@audit.test' })).body.reason).toBe('ticket 4711');
    const added = await auditRows('ban_email', 'email', 'a1@audit.test');
    expect(added).toEqual([
      {
        admin_user_id: admin.adminId,
        target_type: 'email',
        target_id: 'a1@audit.test',
        action: 'ban_email',
        audit_log_reason: 'ticket 4711',
        metadata: { email: 'a1@audit.test' },
      },
    ]);
    expect(await auditRows('ban_email', 'email', 'a2@audit.test')).toHaveLength(1);
    await bans('email', 'remove', { emails: ['a1@audit.test'] });
    expect((await auditRows('unban_email', 'email', 'a1@audit.test')).map((row) => row.audit_log_reason)).toEqual([
      null,
    ]);
  });

  it('names even the longest email as the audit target', async () => {
    const email = `${'l'.repeat(64)}@${'d'.repeat(60)}.${'e'.repeat(60)}.${'f'.repeat(60)}.test`;
    expect(email.length).toBeGreaterThan(128);
    expect((await bans('email', 'add', { email })).status).toBe(204);
    expect((await auditRows('ban_email', 'email', email)).map((row) => row.target_id)).toEqual([email]);
  });

  it('accepts 1000 values in one request and refuses 1001 with the field path', async () => {
    const emails = Array.from({ length: 1000 }, (_, i) => `bulk${i}@many.test`);
    expect((await bans('email', 'add', { emails })).status).toBe(204);
    expect((await bans('email', 'check', { email: 'bulk999@many.test' })).body.banned).toBe(true);
    const tooMany = await bans('email', 'add', { emails: [...emails, 'one-more@many.test'] });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.code).toBe('INVALID_FORM_BODY');
    expect(tooMany.body.errors).toEqual([expect.objectContaining({ path: 'emails', code: 'TOO_BIG' })]);
    expect((await bans('email', 'remove', { emails })).status).toBe(204);
    expect((await bans('email', 'check', { email: 'bulk0@many.test' })).body.banned).toBe(false);
  });

  it('refuses invalid emails with a 400 naming each bad element', async () => {
    const answer = await bans('email', 'add', {
      emails: [
        'ok@valid.test',
        'no-at-sign',
        'ok2@valid.test',
        'spaces in@valid.test',
        'a"quote@valid.test',
        `${'x'.repeat(250)}@v.test`,
      ],
    });
    expect(answer.status).toBe(400);
    expect(answer.body.errors.map((error: { path: string }) => error.path)).toEqual([
      'emails.1',
      'emails.3',
      'emails.4',
      'emails.5',
    ]);
    expect(answer.body.errors[0].code).toBe('INVALID_EMAIL_FORMAT');
    const single = await bans('email', 'check', { email: 'not an email' });
    expect(single.status).toBe(400);
    expect(single.body.errors).toEqual([expect.objectContaining({ path: 'email' })]);
    // Nothing stored by the refused request.
    expect((await bans('email', 'check', { email: 'ok@valid.test' })).body.banned).toBe(false);
  });

  it('refuses a missing value, both expiry forms, and an expiry in the past', async () => {
    const missing = await bans('email', 'add', { email: '' });
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([expect.objectContaining({ path: 'email' })]);
    const both = await bans('email', 'add', {
      email: 'x@expiry.test',
      expires_at: '2999-01-01T00:00:00Z',
      expires_in_seconds: 60,
    });
    expect(both.body.errors).toEqual([expect.objectContaining({ path: 'expires_in_seconds' })]);
    const past = await bans('email', 'add', { email: 'x@expiry.test', expires_at: '2001-01-01T00:00:00Z' });
    expect(past.body.errors).toEqual([expect.objectContaining({ path: 'expires_at' })]);
    const badType = await bans('email', 'add', { email: 'x@expiry.test', expires_in_seconds: 1.5 });
    expect(badType.body.errors).toEqual([expect.objectContaining({ path: 'expires_in_seconds' })]);
  });
});

describe('phone bans', () => {
  it('stores strict E.164 as given and refuses anything reformatted', async () => {
    expect((await bans('phone', 'add', { phone: '+15551234567', expires_at: '2999-01-01T00:00:00.000Z' })).status).toBe(
      204,
    );
    expect((await bans('phone', 'check', { phone: '+15551234567' })).body).toMatchObject({
      banned: true,
      matched: '+15551234567',
      expires_at: '2999-01-01T00:00:00.000Z',
    });
    const bad = await bans('phone', 'add', {
      phones: ['+1 555 123 4567', '15551234567', '+05551234567', '+1-555-1234', '+1234567890123456', '+4'],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((error: { path: string }) => error.path)).toEqual([
      'phones.0',
      'phones.1',
      'phones.2',
      'phones.3',
      'phones.4',
      'phones.5',
    ]);
    expect(bad.body.errors[0].code).toBe('INVALID_PHONE_FORMAT');
  });

  it('stops applying an expired ban at once, hides it from lists unless asked, and restarts it on re-add', async () => {
    expect((await bans('phone', 'add', { phone: '+4930123456', expires_in_seconds: 1 })).status).toBe(204);
    const live = await bans('phone', 'check', { phone: '+4930123456' });
    expect(live.body.banned).toBe(true);
    const expiresAt = Date.parse(live.body.expires_at);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, expiresAt - Date.now()) + 50));
    expect((await bans('phone', 'check', { phone: '+4930123456' })).body).toEqual({ banned: false });
    const listed = await bans('phone', 'list', { simple: true, limit: 500 });
    expect(listed.body.bans).not.toContain('+4930123456');
    const withExpired = await bans('phone', 'list', { simple: true, limit: 500, include_expired: true });
    expect(withExpired.body.bans).toContain('+4930123456');

    await bans('phone', 'add', { phone: '+4930123456' });
    const again = await bans('phone', 'check', { phone: '+4930123456' });
    expect(again.body.expires_at).toBeNull();
    expect(Date.parse(again.body.created_at)).toBeGreaterThan(Date.parse(live.body.created_at));
  });
});

describe('ban lists', () => {
  it('pages newest first with opaque cursors, as objects or (simple) bare strings', async () => {
    const phones = Array.from({ length: 7 }, (_, i) => `+3361234500${i}`);
    for (const phone of phones) await bans('phone', 'add', { phone, reason: `r${phone}` });
    // Two in one request share a creation time: the key orders them.
    await bans('phone', 'add', { phones: ['+33700000001', '+33700000002'] });
    const expected = ['+33700000002', '+33700000001', ...[...phones].reverse()];

    const seen: unknown[] = [];
    let cursor: string | null | undefined;
    do {
      const answer = await bans('phone', 'list', { limit: 3, ...(cursor ? { cursor } : {}) });
      expect(answer.status).toBe(200);
      expect(answer.body.bans.length).toBeLessThanOrEqual(3);
      seen.push(...answer.body.bans);
      cursor = answer.body.next_cursor;
    } while (cursor);
    const ours = (seen as Array<{ phone: string }>).filter((ban) => expected.includes(ban.phone));
    expect(ours.map((ban) => ban.phone)).toEqual(expected);
    expect(ours[2]).toEqual({
      phone: phones[6],
      reason: `r${phones[6]}`,
      expires_at: null,
      created_by: admin.adminId,
      created_at: expect.any(String),
    });

    const simple = await bans('phone', 'list', { limit: 2, simple: true });
    expect(simple.body.bans).toEqual(['+33700000002', '+33700000001']);
    expect(simple.body.next_cursor).toEqual(expect.any(String));
  });

  it('filters by contained text, any case, with % and _ taken literally, across pages', async () => {
    const emails = [
      'Alice.Search@example.org',
      'bob.search@example.org',
      'carol@other.example',
      'd_search@example.org',
    ];
    expect((await bans('email', 'add', { emails })).status).toBe(204);
    const found: string[] = [];
    let cursor: string | null | undefined;
    do {
      const answer = await bans('email', 'list', { contains: 'SEARCH@', limit: 1, ...(cursor ? { cursor } : {}) });
      expect(answer.status).toBe(200);
      found.push(...(answer.body.bans as Array<{ email: string }>).map((ban) => ban.email));
      cursor = answer.body.next_cursor;
    } while (cursor);
    expect(found.sort()).toEqual(['alice.search@example.org', 'bob.search@example.org', 'd_search@example.org']);
    // Were `_` a wildcard, '_sea' would match '.sea' in the first two; were `%`, it would match every ban.
    const underscore = await bans('email', 'list', { contains: '_sea' });
    expect((underscore.body.bans as Array<{ email: string }>).map((ban) => ban.email)).toEqual([
      'd_search@example.org',
    ]);
    const percent = await bans('email', 'list', { contains: '%' });
    expect(percent.body.bans).toEqual([]);
    const tooLong = await bans('email', 'list', { contains: 'x'.repeat(321) });
    expect(tooLong.body.errors).toEqual([expect.objectContaining({ path: 'contains' })]);
  });

  it('refuses a forged cursor and an out-of-range limit', async () => {
    const forged = await bans('email', 'list', { cursor: Buffer.from('["yesterday","x"]').toString('base64url') });
    expect(forged.status).toBe(400);
    expect(forged.body.errors).toEqual([expect.objectContaining({ path: 'cursor' })]);
    const big = await bans('email', 'list', { limit: 501 });
    expect(big.body.errors).toEqual([expect.objectContaining({ path: 'limit' })]);
  });
});
