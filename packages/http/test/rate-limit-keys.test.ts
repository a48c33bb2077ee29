import { describe, expect, it } from 'vitest';
import { RATE_LIMIT_BUCKETS, GLOBAL_RATE_LIMIT, rateLimitBucket } from '@switchboard/contracts';
import { ipRateLimitIdentity, rateLimitKey, resolveBucketKey } from '../src/rate-limit/index.ts';

describe('resolveBucketKey', () => {
  it('fills `::param` placeholders from the route parameters', () => {
    const bucket = rateLimitBucket('webhook:execute::webhook_id');
    expect(resolveBucketKey(bucket, { webhook_id: '123', token: 'secret' })).toBe('webhook:execute:123');
  });

  it('leaves names without placeholders alone', () => {
    expect(resolveBucketKey(rateLimitBucket('admin:code:generation'), {})).toBe('admin:code:generation');
  });

  it('refuses a route that lacks the parameter', () => {
    expect(() => resolveBucketKey(rateLimitBucket('webhook:list::guild_id'), { guildId: '1' })).toThrow(/:guild_id/);
  });

  it('caps an over-long parameter value', () => {
    const key = resolveBucketKey(rateLimitBucket('webhook:read::webhook_id'), { webhook_id: 'x'.repeat(10_000) });
    expect(key).toBe(`webhook:read:${'x'.repeat(64)}`);
  });
});

describe('identities and keys', () => {
  it('keys IPv4 by address and IPv6 by its /64', () => {
    expect(ipRateLimitIdentity('203.0.113.7')).toBe('ip:203.0.113.7');
    expect(ipRateLimitIdentity('2001:db8:1:2:aaaa::1')).toBe('ip:2001:db8:1:2::/64');
    expect(ipRateLimitIdentity('2001:db8:1:2::ffff')).toBe('ip:2001:db8:1:2::/64');
    expect(ipRateLimitIdentity('2001:db8::1')).toBe('ip:2001:db8:0:0::/64');
    expect(ipRateLimitIdentity('::1')).toBe('ip:0:0:0:0::/64');
  });

  it('puts the identity in a hash tag so both keys of one call share a cluster slot', () => {
    expect(rateLimitKey('sb', 'ip:2001:db8:0:0::/64', 'admin:lookup')).toBe(
      'sb:rl:{ip:2001:db8:0:0::/64}:admin:lookup',
    );
  });
});

describe('the bucket table', () => {
  it('holds the reference numbers', () => {
    const table = Object.fromEntries(
      Object.values(RATE_LIMIT_BUCKETS).map((b) => [b.name, [b.limit, b.windowMs, b.countsTowardGlobal]]),
    );
    expect(table).toEqual({
      'instance:info': [60, 60_000, true],
      'auth:failures': [1000, 60_000, false],
      'webhook:failures::webhook_id': [60, 60_000, false],
      'admin:code:generation': [30, 60_000, true],
      'admin:user:modify': [100, 60_000, true],
      'admin:lookup': [200, 60_000, true],
      'admin:guild:modify': [100, 60_000, true],
      'admin:audit_log': [100, 60_000, true],
      'admin:ban:operation': [60, 60_000, true],
      'admin:bulk:operation': [20, 60_000, true],
      'admin:dashboard': [300, 60_000, false],
      'webhook:list::guild_id': [40, 10_000, true],
      'webhook:list::channel_id': [40, 10_000, true],
      'webhook:create::channel_id': [10, 60_000, true],
      'webhook:read::webhook_id': [100, 10_000, true],
      'webhook:update::webhook_id': [20, 10_000, true],
      'webhook:delete::webhook_id': [20, 10_000, true],
      'channel:messages:read::channel_id': [50, 10_000, true],
      'webhook:execute::webhook_id': [60, 60_000, false],
      'webhook:codehost::webhook_id': [200, 60_000, false],
    });
    expect(GLOBAL_RATE_LIMIT).toMatchObject({ limit: 50, windowMs: 1000 });
    for (const [name, bucket] of Object.entries(RATE_LIMIT_BUCKETS)) expect(bucket.name).toBe(name);
  });
});
