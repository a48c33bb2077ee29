import { describe, expect, it } from 'vitest';
import { commonSchema, DEVELOPMENT_S3_KEY, parseConfig, s3Schema } from '../src/index.ts';

const schema = commonSchema.extend(s3Schema.shape);
const stores = { DATABASE_URL: 'postgres://db/switchboard', REDIS_URL: 'redis://redis:6379' };

describe('S3 keys', () => {
  it('none: the AWS default credential chain, in production too', () => {
    const parsed = parseConfig(schema, { ...stores, NODE_ENV: 'production' });
    expect(parsed.ok).toBe(true);
    if (parsed.ok)
      expect([parsed.config.S3_ACCESS_KEY_ID, parsed.config.S3_SECRET_ACCESS_KEY]).toEqual([undefined, undefined]);
  });

  it('both: taken as they are', () => {
    const parsed = parseConfig(schema, { ...stores, S3_ACCESS_KEY_ID: 'AKIA1', S3_SECRET_ACCESS_KEY: 'secret' });
    expect(parsed).toMatchObject({ ok: true, config: { S3_ACCESS_KEY_ID: 'AKIA1', S3_SECRET_ACCESS_KEY: 'secret' } });
  });

  it('one without the other: refused, saying what to do', () => {
    for (const one of [{ S3_ACCESS_KEY_ID: 'AKIA1' }, { S3_SECRET_ACCESS_KEY: 'secret' }]) {
      const parsed = parseConfig(schema, { ...stores, ...one });
      expect(parsed).toEqual({
        ok: false,
        problems: [expect.stringMatching(/set both, or neither to use the AWS default credential chain/)],
      });
    }
  });

  it("the development store's key: fine in development, refused in production in one sentence", () => {
    const development = { S3_ACCESS_KEY_ID: DEVELOPMENT_S3_KEY, S3_SECRET_ACCESS_KEY: DEVELOPMENT_S3_KEY };
    expect(parseConfig(schema, { ...stores, ...development }).ok).toBe(true);
    const parsed = parseConfig(schema, { ...stores, ...development, NODE_ENV: 'production' });
    expect(parsed).toEqual({
      ok: false,
      problems: [
        expect.stringMatching(
          /^S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: S3RVER is the development store's key and NODE_ENV is production/,
        ),
      ],
    });
  });

  it('reports a bad variable before the rules across variables', () => {
    const parsed = parseConfig(schema, { ...stores, S3_ACCESS_KEY_ID: 'AKIA1', DATABASE_POOL_SIZE: 'many' });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems).toEqual([expect.stringMatching(/^DATABASE_POOL_SIZE/)]);
  });
});
