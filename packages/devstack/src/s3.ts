import { mkdir } from 'node:fs/promises';
// s3rver ships no types; it is a Koa app with run()/close().
// @ts-expect-error no declaration file
import S3rver from 's3rver';

/** s3rver accepts only its fixed credential pair. */
export const S3RVER_CREDENTIAL = 'S3RVER';

export interface EmbeddedS3 {
  endpoint: string;
  stop(): Promise<void>;
}

/**
 * s3rver in this process, data kept in `dir` across runs, with the bucket created. A
 * development store only: single process, fixed credentials, no durability guarantees.
 */
export async function startEmbeddedS3(dir: string, bucket: string): Promise<EmbeddedS3> {
  await mkdir(dir, { recursive: true });
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    resetOnClose: false,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = (await server.run()) as { port: number };
  return { endpoint: `http://127.0.0.1:${port}`, stop: () => server.close() };
}
