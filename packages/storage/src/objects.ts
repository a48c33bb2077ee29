import type { Readable } from 'node:stream';
import { GetObjectCommand, HeadObjectCommand, type S3Client } from '@aws-sdk/client-s3';

export interface ObjectHead {
  size: number;
  contentType: string;
}

/** True for the store's "no such key" answers (HEAD has no body, so only a bare 404). */
function isMissing(error: unknown): boolean {
  const { name, $metadata } = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return name === 'NotFound' || name === 'NoSuchKey' || $metadata?.httpStatusCode === 404;
}

/** Size and content type of an object, or null when it does not exist. */
export async function headObject(client: S3Client, bucket: string, key: string): Promise<ObjectHead | null> {
  try {
    const head = await client.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
    return { size: head.ContentLength ?? 0, contentType: head.ContentType ?? 'application/octet-stream' };
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

/** The object's bytes as a stream, or null when it does not exist. The caller must consume or destroy it. */
export async function getObjectStream(client: S3Client, bucket: string, key: string): Promise<Readable | null> {
  try {
    const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key }));
    return object.Body as Readable;
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}
