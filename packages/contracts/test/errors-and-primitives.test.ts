import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ERRORS, LIMITS, errorBodySchema, snowflakeSchema } from '../src/index.ts';

describe('ERRORS', () => {
  it('gives every code an HTTP error status and an English sentence', () => {
    for (const [code, { status, message }] of Object.entries(ERRORS)) {
      expect(code).toMatch(/^[A-Z][A-Z0-9_]*$/);
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThan(600);
      expect(message).toMatch(/^[A-Z].*[^ ]$/);
    }
  });

  it('keeps the statuses clients rely on', () => {
    expect(ERRORS.INVALID_FORM_BODY.status).toBe(400);
    expect(ERRORS.UNAUTHORIZED.status).toBe(401);
    expect(ERRORS.MISSING_ACL.status).toBe(403);
    expect(ERRORS.UNKNOWN_WEBHOOK.status).toBe(404);
    expect(ERRORS.MAX_WEBHOOKS.status).toBe(400);
    expect(ERRORS.RATE_LIMITED.status).toBe(429);
    expect(ERRORS.INTERNAL_SERVER_ERROR.status).toBe(500);
  });

  it('states the webhook limits from the limits table', () => {
    expect(ERRORS.MAX_WEBHOOKS.message).toContain(`(${LIMITS.webhooks.perChannel})`);
    expect(ERRORS.MAX_WEBHOOKS_PER_GUILD.message).toContain(`(${LIMITS.webhooks.perGuild})`);
  });

  it('describes the error body, extra fields allowed', () => {
    expect(errorBodySchema.safeParse({ code: 'RATE_LIMITED', message: 'x', retry_after: 1 }).success).toBe(true);
    expect(errorBodySchema.safeParse({ code: 'bad code', message: 'x' }).success).toBe(false);
  });
});

describe('snowflakeSchema', () => {
  it.each([
    ['123', '123'],
    [' 42 ', '42'],
    [0, '0'],
    [Number.MAX_SAFE_INTEGER, String(Number.MAX_SAFE_INTEGER)],
    ['9223372036854775807', '9223372036854775807'],
  ])('accepts %j as %j', (input, output) => {
    expect(snowflakeSchema.parse(input)).toBe(output);
  });

  it.each([['0x10'], ['-1'], ['01'], ['9223372036854775808'], [1.5], [-1], [2 ** 60], [true], [null], ['']])(
    'rejects %j with INVALID_SNOWFLAKE_FORMAT',
    (input) => {
      const result = z.object({ id: snowflakeSchema }).safeParse({ id: input });
      expect(result.success).toBe(false);
      expect(result.error?.issues).toEqual([
        expect.objectContaining({ path: ['id'], code: 'custom', params: { code: 'INVALID_SNOWFLAKE_FORMAT' } }),
      ]);
    },
  );
});
