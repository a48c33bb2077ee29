import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeDevstackEnv } from '../src/index.ts';
import { runCli } from './run-cli.ts';

const environment = useTestEnvironment();
let dir: string;
let file: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sb-devstack-'));
  file = join(dir, 'devstack.env');
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('devstack.env fallback', () => {
  it('fills what the environment lacks from the file; the environment wins', async () => {
    await writeFile(
      file,
      '# written by npm start\nDATABASE_URL=postgres://file/db\nREDIS_URL=redis://file\nS3_ENDPOINT="http://file:9000"\nS3_BUCKET=from-file\n',
    );
    const merged = mergeDevstackEnv({ DATABASE_URL: 'postgres://env/db', S3_BUCKET: '' }, file);
    expect(merged).toMatchObject({
      DATABASE_URL: 'postgres://env/db',
      REDIS_URL: 'redis://file',
      S3_ENDPOINT: 'http://file:9000',
      S3_BUCKET: 'from-file',
    });
  });

  it('ignores the file when the environment names every store, and a missing file', async () => {
    await writeFile(file, 'S3_BUCKET=from-file\n');
    const env = { DATABASE_URL: 'postgres://env/db', REDIS_URL: 'redis://env', S3_ENDPOINT: 'http://env:9000' };
    expect(mergeDevstackEnv(env, file)).toEqual(env);
    expect(mergeDevstackEnv({ PATH: '/bin' }, join(dir, 'missing.env'))).toEqual({ PATH: '/bin' });
  });

  it('lets `migrate` run with no DATABASE_URL in the environment when the dev stack file has it', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'sb-devstack-data-'));
    try {
      const { DATABASE_URL, REDIS_URL, S3_ENDPOINT, ...rest } = environment.processEnv();
      await writeFile(
        join(dataDir, 'devstack.env'),
        `DATABASE_URL=${DATABASE_URL}\nREDIS_URL=${REDIS_URL}\nS3_ENDPOINT=${S3_ENDPOINT}\n`,
      );
      const run = await runCli(['migrate', '--json'], { ...rest, DEVSTACK_DATA_DIR: dataDir });
      expect(run.stderr).toBe('');
      expect(JSON.parse(run.stdout)).toEqual({ applied: [] });
      const withoutFile = await runCli(['migrate', '--json'], { ...rest, DEVSTACK_DATA_DIR: join(dataDir, 'nowhere') });
      expect(withoutFile.code).toBe(78);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
