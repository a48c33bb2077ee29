import { Readable, Transform, pipeline } from 'node:stream';
import { AbortMultipartUploadCommand, type S3Client } from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';

export type UploadBody = Readable | Buffer | Uint8Array | string;

export interface UploadOptions {
  contentType: string;
  contentDisposition?: string;
  /** User metadata (`x-amz-meta-*`): ASCII keys and values. */
  metadata?: Record<string, string>;
}

export interface UploadResult {
  key: string;
  /** Bytes stored, counted as they passed. */
  size: number;
}

/**
 * Parts of 8 MiB (S3's minimum is 5 MiB), at most 2 in flight: an upload holds roughly
 * (QUEUE_SIZE + 1) × PART_SIZE_BYTES in memory whatever the object's size, and 10,000 parts
 * allow objects up to 80 GiB.
 */
export const PART_SIZE_BYTES = 8 * 1024 * 1024;
const QUEUE_SIZE = 2;

/** An upload that failed; `cause` is the original error (from the source stream or from S3). */
export class UploadError extends Error {
  readonly key: string;
  /**
   * Set when a multipart upload was started and could not be aborted: its parts stay billed
   * until a lifecycle rule (AbortIncompleteMultipartUpload) or an operator removes them.
   */
  readonly abandonedUploadId: string | undefined;

  constructor(key: string, cause: unknown, abandonedUploadId: string | undefined) {
    super(`Upload of ${key} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'UploadError';
    this.key = key;
    this.abandonedUploadId = abandonedUploadId;
  }
}

/** Passes a stream through, counting its bytes. */
function countingStream(source: Readable): { stream: Transform; bytes: () => number; settled: Promise<void> } {
  let bytes = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      done(null, chunk);
    },
  });
  // pipeline destroys the source when the counter is destroyed, so a failed upload never
  // leaves the producer (a database cursor, a ZIP writer) blocked on backpressure.
  const settled = new Promise<void>((resolve) => pipeline(source, counter, () => resolve()));
  return { stream: counter, bytes: () => bytes, settled };
}

function byteLength(body: Exclude<UploadBody, Readable>): number {
  return typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
}

/**
 * Streams `body` to `bucket/key`: one PUT when it fits in a part, else a multipart upload.
 * On failure the multipart upload is aborted (we do it ourselves, so that an abort refused
 * by the store never hides the original error) and an UploadError is thrown.
 */
export async function uploadObject(
  client: S3Client,
  bucket: string,
  key: string,
  body: UploadBody,
  options: UploadOptions,
): Promise<UploadResult> {
  const counted = body instanceof Readable ? countingStream(body) : undefined;
  const upload = new Upload({
    client,
    params: {
      Bucket: bucket,
      Key: key,
      Body: counted ? counted.stream : body,
      ContentType: options.contentType,
      ...(options.contentDisposition ? { ContentDisposition: options.contentDisposition } : {}),
      ...(options.metadata ? { Metadata: options.metadata } : {}),
    },
    partSize: PART_SIZE_BYTES,
    queueSize: QUEUE_SIZE,
    leavePartsOnError: true,
  });
  try {
    await upload.done();
  } catch (error) {
    if (counted) {
      counted.stream.destroy();
      await counted.settled;
    }
    throw new UploadError(key, error, await abortMultipartUpload(client, bucket, key, upload.uploadId));
  }
  return { key, size: counted ? counted.bytes() : byteLength(body as Exclude<UploadBody, Readable>) };
}

/** Aborts a started multipart upload; answers its id when the store refused to abort it. */
async function abortMultipartUpload(
  client: S3Client,
  bucket: string,
  key: string,
  uploadId: string | undefined,
): Promise<string | undefined> {
  if (!uploadId) return undefined;
  try {
    await client.send(new AbortMultipartUploadCommand({ Bucket: bucket, Key: key, UploadId: uploadId }));
    return undefined;
  } catch {
    return uploadId;
  }
}
