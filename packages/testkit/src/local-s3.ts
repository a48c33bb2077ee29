import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// s3rver ships no types; it is a Koa app with run()/close().
// @ts-expect-error no declaration file
import S3rver from 's3rver';
import type { TestServices } from './services.ts';

/** s3rver's fixed development credentials. */
const S3RVER_CREDENTIAL = 'S3RVER';

/**
 * An in-process S3-compatible store on a free loopback port, data in a temporary folder that
 * is removed on stop. It checks SigV4 signatures and presigned-URL expiry with its fixed
 * credential, which is enough for tests of our S3 code paths.
 */
export async function startLocalS3(): Promise<{ s3: TestServices['s3']; stop: () => Promise<void> }> {
  const directory = await mkdtemp(join(tmpdir(), 'switchboard-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, resetOnClose: true });
  const { port } = (await server.run()) as { port: number };
  return {
    s3: {
      endpoint: `http://127.0.0.1:${port}`,
      accessKeyId: S3RVER_CREDENTIAL,
      secretAccessKey: S3RVER_CREDENTIAL,
      region: 'us-east-1',
    },
    stop: async () => {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
