import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commonSchema, parseConfig, s3Schema } from '../src/index.ts';

const schema = commonSchema.extend(s3Schema.shape);
let folder: string;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'sb-secret-files-'));
});
afterAll(() => rm(folder, { recursive: true, force: true }));

async function secretFile(name: string, content: string): Promise<string> {
  const path = join(folder, name);
  await writeFile(path, content, { mode: 0o600 });
  return path;
}

describe('<NAME>_FILE for a secret variable', () => {
  it('is read in place of the variable, a trailing newline dropped', async () => {
    const parsed = parseConfig(schema, {
      DATABASE_URL_FILE: await secretFile('database-url', 'postgres://app:s3cret@db:5432/switchboard\n'),
      REDIS_URL: 'redis://redis:6379',
      S3_ACCESS_KEY_ID_FILE: await secretFile('key-id', 'AKIA1'),
      S3_SECRET_ACCESS_KEY_FILE: await secretFile('secret', 'secret key\r\n'),
    });
    expect(parsed).toMatchObject({
      ok: true,
      config: {
        DATABASE_URL: 'postgres://app:s3cret@db:5432/switchboard',
        S3_ACCESS_KEY_ID: 'AKIA1',
        S3_SECRET_ACCESS_KEY: 'secret key',
      },
    });
  });

  it('is refused beside the variable itself, and when it cannot be read, naming the path, never a secret', async () => {
    const both = parseConfig(schema, {
      DATABASE_URL: 'postgres://app:inline@db/switchboard',
      DATABASE_URL_FILE: await secretFile('both', 'postgres://app:file@db/switchboard'),
      REDIS_URL: 'redis://redis:6379',
    });
    expect(both).toEqual({ ok: false, problems: ['DATABASE_URL_FILE: DATABASE_URL is set too; set one of them'] });
    const missing = join(folder, 'absent');
    const unreadable = parseConfig(schema, { DATABASE_URL_FILE: missing, REDIS_URL: 'redis://redis:6379' });
    expect(unreadable).toEqual({ ok: false, problems: [`DATABASE_URL_FILE: cannot read ${missing} (ENOENT)`] });
  });

  it('is parsed like the variable: a bad value is reported under its name, without the value', async () => {
    const parsed = parseConfig(schema, {
      DATABASE_URL_FILE: await secretFile('not-a-url', 'p@ssw0rd-not-a-url'),
      REDIS_URL: 'redis://redis:6379',
    });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) {
      expect(parsed.problems).toEqual([expect.stringMatching(/^DATABASE_URL: /)]);
      expect(parsed.problems.join()).not.toContain('p@ssw0rd');
    }
  });
});
