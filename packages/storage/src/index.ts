import type { S3Client } from '@aws-sdk/client-s3';
import { bucketReachable, createS3Client, ensureBucket, type StorageOptions } from './client.ts';

export { createS3Client, storageOptionsFromConfig, type StorageOptions } from './client.ts';

/** The one S3 bucket a process works with. */
export interface Storage {
  client: S3Client;
  bucket: string;
  ensureBucket(): Promise<void>;
  reachable(): Promise<boolean>;
  close(): void;
}

export function createStorage(options: StorageOptions): Storage {
  const client = createS3Client(options);
  return {
    client,
    bucket: options.bucket,
    ensureBucket: () => ensureBucket(client, options.bucket),
    reachable: () => bucketReachable(client, options.bucket),
    close: () => client.destroy(),
  };
}
