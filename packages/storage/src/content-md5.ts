import { createHash } from 'node:crypto';
import type { S3Client } from '@aws-sdk/client-s3';

const CHECKSUM_HEADER = /^x-amz-(sdk-)?checksum-/i;

/**
 * DeleteObjects must carry an integrity header. With `WHEN_REQUIRED` checksums the SDK sends
 * only `x-amz-checksum-crc32`, which AWS and current MinIO accept but older MinIO releases and
 * other S3-compatible stores refuse (`MissingContentMD5`). Content-MD5 is accepted by all of
 * them (the SDK's documented MD5 fallback), so DeleteObjects sends that instead. s3rver 3.7.1
 * checks neither header.
 */
export function useContentMd5ForDeleteObjects(client: S3Client): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const request = args.request as { headers?: Record<string, string>; body?: unknown };
      const body = request.body;
      if (
        context.commandName === 'DeleteObjectsCommand' &&
        request.headers &&
        (typeof body === 'string' || body instanceof Uint8Array)
      ) {
        for (const name of Object.keys(request.headers)) {
          if (CHECKSUM_HEADER.test(name)) delete request.headers[name];
        }
        request.headers['content-md5'] = createHash('md5').update(body).digest('base64');
      }
      return next(args);
    },
    // Build step, after the SDK's own checksum middleware has run, before signing.
    { step: 'build', name: 'deleteObjectsContentMd5', priority: 'low' },
  );
}
