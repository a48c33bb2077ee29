import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';

export interface PresignDownloadOptions {
  /** The name the browser saves the file as; any Unicode, quotes and slashes included. */
  filename: string;
  /** Lifetime of the link, 1 second to 7 days (S3's limit for SigV4). */
  expiresInSeconds: number;
}

export interface PresignedDownload {
  url: string;
  expiresAt: Date;
}

const MAX_EXPIRES_IN_SECONDS = 7 * 24 * 60 * 60;

/** Characters RFC 5987 `attr-char` allows unencoded, beyond what encodeURIComponent leaves. */
const NOT_ATTR_CHAR = /['()*]/g;

/**
 * `attachment` with both filename forms (RFC 6266 §4.3): an ASCII `filename="…"` fallback for
 * old clients, where anything outside printable ASCII, quotes, backslashes and `%` (which
 * some browsers percent-decode) become `_`, and the exact name as `filename*=UTF-8''…`
 * (RFC 5987), which current browsers prefer.
 */
export function attachmentDisposition(filename: string): string {
  if (filename.length === 0) throw new Error('filename must not be empty');
  // A lone surrogate cannot be UTF-8 encoded (encodeURIComponent throws): make it U+FFFD.
  const name = filename.toWellFormed();
  const fallback = name.replace(/[^\x20-\x7e]|["\\%]/gu, '_');
  const encoded = encodeURIComponent(name).replace(
    NOT_ATTR_CHAR,
    (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/**
 * A presigned GET that makes the browser download the object under `filename`. SigV4 dates
 * have whole seconds, so the link is signed at the current second and `expiresAt` is exact.
 */
export async function presignDownload(
  client: S3Client,
  bucket: string,
  key: string,
  options: PresignDownloadOptions,
): Promise<PresignedDownload> {
  const { expiresInSeconds } = options;
  if (!Number.isInteger(expiresInSeconds) || expiresInSeconds < 1 || expiresInSeconds > MAX_EXPIRES_IN_SECONDS) {
    throw new RangeError(`expiresInSeconds must be a whole number from 1 to ${MAX_EXPIRES_IN_SECONDS}`);
  }
  const signingDate = new Date(Math.floor(Date.now() / 1000) * 1000);
  const command = new GetObjectCommand({
    Bucket: bucket,
    Key: key,
    ResponseContentDisposition: attachmentDisposition(options.filename),
  });
  const url = await getSignedUrl(client, command, { expiresIn: expiresInSeconds, signingDate });
  return { url, expiresAt: new Date(signingDate.getTime() + expiresInSeconds * 1000) };
}
