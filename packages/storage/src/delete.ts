import { DeleteObjectsCommand, ListObjectsCommand, type S3Client } from '@aws-sdk/client-s3';

export interface DeleteError {
  key: string;
  code: string;
  message: string;
}

export interface DeleteResult {
  /** Keys that no longer exist, whether this call removed them or they were already gone. */
  deleted: string[];
  errors: DeleteError[];
}

/** S3 accepts at most 1000 keys per DeleteObjects request. */
export const DELETE_BATCH_SIZE = 1000;

/**
 * Deletes keys in batches of 1000. S3 reports a missing key as deleted, so calling this again
 * (a retried job) is harmless. Per-key refusals come back in `errors`; a failed request (the
 * store unreachable) throws, leaving later batches untouched, and is safe to retry.
 */
export async function deleteObjects(client: S3Client, bucket: string, keys: readonly string[]): Promise<DeleteResult> {
  const unique = [...new Set(keys)];
  const result: DeleteResult = { deleted: [], errors: [] };
  for (let start = 0; start < unique.length; start += DELETE_BATCH_SIZE) {
    const batch = unique.slice(start, start + DELETE_BATCH_SIZE);
    const { deleted, errors } = await deleteBatch(client, bucket, batch);
    result.deleted.push(...deleted);
    result.errors.push(...errors);
  }
  return result;
}

async function deleteBatch(client: S3Client, bucket: string, keys: string[]): Promise<DeleteResult> {
  // Quiet mode: the store answers only the failures, whatever the batch size.
  const response = await client.send(
    new DeleteObjectsCommand({
      Bucket: bucket,
      Delete: { Objects: keys.map((Key) => ({ Key })), Quiet: true },
    }),
  );
  const errors = (response.Errors ?? []).map((error) => ({
    key: error.Key ?? '',
    code: error.Code ?? 'Unknown',
    message: error.Message ?? '',
  }));
  const failed = new Set(errors.map((error) => error.key));
  return { deleted: keys.filter((key) => !failed.has(key)), errors };
}

/**
 * Deletes every object whose key starts with `prefix`, one listed page (up to 1000 keys) at a
 * time. An empty prefix is refused: it would empty the bucket.
 *
 * Lists with ListObjects (v1) and the last key as marker, not v2 continuation tokens: s3rver
 * encrypts its v2 tokens with DES, which OpenSSL 3 (Node 17+) refuses, so any truncated v2
 * listing fails there; v1 markers work on AWS, MinIO and s3rver alike.
 */
export async function deletePrefix(client: S3Client, bucket: string, prefix: string): Promise<DeleteResult> {
  if (prefix.length === 0) throw new Error('deletePrefix needs a non-empty prefix');
  const result: DeleteResult = { deleted: [], errors: [] };
  let marker: string | undefined;
  for (;;) {
    const page = await client.send(new ListObjectsCommand({ Bucket: bucket, Prefix: prefix, Marker: marker }));
    const keys = (page.Contents ?? []).flatMap((object) => (object.Key === undefined ? [] : [object.Key]));
    if (keys.length > 0) {
      const { deleted, errors } = await deleteBatch(client, bucket, keys);
      result.deleted.push(...deleted);
      result.errors.push(...errors);
    }
    marker = keys.at(-1);
    if (!page.IsTruncated || marker === undefined) return result;
  }
}

/** One object of a listing. */
export interface ListedObject {
  key: string;
  lastModified: Date;
}

/** The objects under a non-empty prefix, one listed page (up to 1000) at a time, with ListObjects v1 markers as deletePrefix. */
export async function* listObjects(client: S3Client, bucket: string, prefix: string): AsyncGenerator<ListedObject[]> {
  if (prefix.length === 0) throw new Error('listObjects needs a non-empty prefix');
  let marker: string | undefined;
  for (;;) {
    const page = await client.send(new ListObjectsCommand({ Bucket: bucket, Prefix: prefix, Marker: marker }));
    const objects = (page.Contents ?? []).flatMap((object) =>
      object.Key === undefined ? [] : [{ key: object.Key, lastModified: object.LastModified ?? new Date(0) }],
    );
    if (objects.length > 0) yield objects;
    marker = objects.at(-1)?.key;
    if (!page.IsTruncated || marker === undefined) return;
  }
}
