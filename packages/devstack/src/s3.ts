import { mkdir, unlink } from 'node:fs/promises';
// s3rver ships no types; it is a Koa app with run()/close().
// @ts-expect-error no declaration file
import S3rver from 's3rver';
import { verifySigV4 } from './s3-sigv4.ts';

/** s3rver accepts only its fixed credential pair. */
export const S3RVER_CREDENTIAL = 'S3RVER';

export interface EmbeddedS3Options {
  /** Where objects are kept. */
  dir: string;
  /** Buckets to create at start (tests create their own per file). */
  buckets?: string[];
  /** Delete every object when the store stops (throwaway test stores). */
  resetOnClose?: boolean;
}

export interface EmbeddedS3 {
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  stop(): Promise<void>;
}

interface FilesystemStore {
  getResourcePath(bucket: string, key: string, resource: string): string;
  deleteObject(bucket: string, key: string): Promise<void>;
}

/**
 * s3rver (3.7) removes a folder once its last object is deleted; an upload into that folder at
 * the same moment (our worker deletes a claim-checked webhook body while the gateway stores the
 * next) then fails on a write stream nobody listens to, and the uncaught error kills this whole
 * process. Deleting only the object's files leaves empty folders, which no listing shows.
 */
function keepEmptyFolders(store: FilesystemStore): void {
  store.deleteObject = async (bucket, key) => {
    const files = ['object', 'object.md5', 'metadata.json'].map((resource) =>
      store.getResourcePath(bucket, key, resource),
    );
    const removeIfThere = (file: string) =>
      unlink(file).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
    await Promise.all(files.map(removeIfThere));
  };
}

/**
 * s3rver in this process on a free loopback port. A development store only: single process,
 * fixed credentials, no durability guarantees. s3rver checks presigned-URL expiry itself;
 * SigV4 signatures, which it leaves unimplemented, are checked by our middleware, so a
 * tampered or wrongly signed request fails here as it does on S3.
 */
export async function startEmbeddedS3({
  dir,
  buckets = [],
  resetOnClose = false,
}: EmbeddedS3Options): Promise<EmbeddedS3> {
  await mkdir(dir, { recursive: true });
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    resetOnClose,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  keepEmptyFolders(server.store);
  // Before s3rver's router, the last middleware it registers.
  server.middleware.splice(
    server.middleware.length - 1,
    0,
    verifySigV4((id) => (id === S3RVER_CREDENTIAL ? S3RVER_CREDENTIAL : undefined)),
  );
  const { port } = (await server.run()) as { port: number };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    accessKeyId: S3RVER_CREDENTIAL,
    secretAccessKey: S3RVER_CREDENTIAL,
    stop: () => server.close(),
  };
}
