import type { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import { bucketReachable, createS3Client, ensureBucket, type StorageOptions } from './client.ts';
import { deleteObjects, deletePrefix, listObjects, type DeleteResult, type ListedObject } from './delete.ts';
import { getObjectStream, headObject, type ObjectHead } from './objects.ts';
import { presignDownload, type PresignDownloadOptions, type PresignedDownload } from './presign.ts';
import { uploadObject, type UploadBody, type UploadOptions, type UploadResult } from './upload.ts';

export {
  createS3Client,
  DEFAULT_STORAGE_BOUNDS,
  isStorageUnavailable,
  storageOptionsFromConfig,
  keyedStoreOptions,
  type StorageBounds,
  type StorageOptions,
} from './client.ts';
export { DELETE_BATCH_SIZE, type DeleteError, type DeleteResult, type ListedObject } from './delete.ts';
export type { ObjectHead } from './objects.ts';
export { attachmentDisposition, type PresignDownloadOptions, type PresignedDownload } from './presign.ts';
export { PART_SIZE_BYTES, UploadError, type UploadBody, type UploadOptions, type UploadResult } from './upload.ts';

/** The one S3 bucket a process works with. */
export interface Storage {
  client: S3Client;
  bucket: string;
  ensureBucket(): Promise<void>;
  reachable(): Promise<boolean>;
  /** Streams a body to `key` (multipart above one part); throws UploadError. */
  upload(key: string, body: UploadBody, options: UploadOptions): Promise<UploadResult>;
  /** A presigned GET that downloads as an attachment named `filename`. */
  presignDownload(key: string, options: PresignDownloadOptions): Promise<PresignedDownload>;
  /** Batch delete, 1000 keys a request; missing keys count as deleted. */
  deleteObjects(keys: readonly string[]): Promise<DeleteResult>;
  /** Deletes every object under a non-empty prefix. */
  deletePrefix(prefix: string): Promise<DeleteResult>;
  /** The objects under a non-empty prefix with their modification times, a page at a time. */
  listObjects(prefix: string): AsyncGenerator<ListedObject[]>;
  headObject(key: string): Promise<ObjectHead | null>;
  getObjectStream(key: string): Promise<Readable | null>;
  close(): void;
}

export function createStorage(options: StorageOptions): Storage {
  const client = createS3Client(options);
  const bucket = options.bucket;
  return {
    client,
    bucket,
    ensureBucket: () => ensureBucket(client, bucket),
    reachable: () => bucketReachable(client, bucket),
    upload: (key, body, uploadOptions) => uploadObject(client, bucket, key, body, uploadOptions),
    presignDownload: (key, presignOptions) => presignDownload(client, bucket, key, presignOptions),
    deleteObjects: (keys) => deleteObjects(client, bucket, keys),
    deletePrefix: (prefix) => deletePrefix(client, bucket, prefix),
    listObjects: (prefix) => listObjects(client, bucket, prefix),
    headObject: (key) => headObject(client, bucket, key),
    getObjectStream: (key) => getObjectStream(client, bucket, key),
    close: () => client.destroy(),
  };
}
