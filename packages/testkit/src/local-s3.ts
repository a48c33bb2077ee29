import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// s3rver ships no types; it is a Koa app with run()/close().
// @ts-expect-error no declaration file
import S3rver from 's3rver';
import { verifySigV4 } from './s3rver-sigv4.ts';
import type { TestServices } from './services.ts';

/** s3rver's fixed development credentials. */
const S3RVER_CREDENTIAL = 'S3RVER';

/**
 * An in-process S3-compatible store on a free loopback port, data in a temporary folder that
 * is removed on stop. s3rver checks presigned-URL expiry itself; SigV4 signatures, which it
 * leaves unimplemented, are checked by our middleware, so tampered requests fail as on S3.
 */
export async function startLocalS3(): Promise<{ s3: TestServices['s3']; stop: () => Promise<void> }> {
  const directory = await mkdtemp(join(tmpdir(), 'switchboard-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, resetOnClose: true });
  // Before s3rver's router, the last middleware it registers.
  server.middleware.splice(server.middleware.length - 1, 0, verifySigV4((id) => (id === S3RVER_CREDENTIAL ? S3RVER_CREDENTIAL : undefined)));
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
