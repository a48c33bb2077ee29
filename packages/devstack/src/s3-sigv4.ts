import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { createRequire } from 'node:module';

// s3rver's own error type, so a refusal is answered as s3rver answers every S3 error.
const S3Error = createRequire(import.meta.url)('s3rver/lib/models/error') as new (
  code: string,
  message: string,
) => Error;

interface KoaContext {
  method: string;
  headers: Record<string, string | string[] | undefined>;
  req: { url?: string };
}

/** RFC 3986 encoding, as SigV4 wants it. */
const encode = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const hmac = (key: string | Buffer, value: string) => createHmac('sha256', key).update(value).digest();

function canonicalQuery(rawQuery: string): string {
  return rawQuery
    .split('&')
    .filter((pair) => pair.length > 0)
    .map((pair) => {
      const [key = '', value = ''] = pair.split(/=(.*)/s);
      return [encode(decodeURIComponent(key)), encode(decodeURIComponent(value))] as const;
    })
    .filter(([key]) => key !== 'X-Amz-Signature')
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1))
    .map(([key, value]) => `${key}=${value}`)
    .join('&');
}

interface Signed {
  credential: string;
  signedHeaders: string;
  signature: string;
  amzDate: string;
  payloadHash: string;
}

/** The signature parts of a header-signed or presigned request, or null when unsigned/not SigV4. */
function signedParts(ctx: KoaContext, query: URLSearchParams): Signed | null {
  const header = ctx.headers.authorization;
  if (typeof header === 'string' && header.startsWith('AWS4-HMAC-SHA256 ')) {
    const fields = Object.fromEntries(
      header
        .slice('AWS4-HMAC-SHA256 '.length)
        .split(/,\s*/)
        .map((field) => field.split(/=(.*)/s) as [string, string]),
    );
    return {
      credential: fields.Credential ?? '',
      signedHeaders: fields.SignedHeaders ?? '',
      signature: fields.Signature ?? '',
      amzDate: String(ctx.headers['x-amz-date'] ?? ''),
      payloadHash: String(ctx.headers['x-amz-content-sha256'] ?? ''),
    };
  }
  if (query.get('X-Amz-Algorithm') === 'AWS4-HMAC-SHA256') {
    return {
      credential: query.get('X-Amz-Credential') ?? '',
      signedHeaders: query.get('X-Amz-SignedHeaders') ?? '',
      signature: query.get('X-Amz-Signature') ?? '',
      amzDate: query.get('X-Amz-Date') ?? '',
      payloadHash: 'UNSIGNED-PAYLOAD',
    };
  }
  return null;
}

/**
 * Koa middleware verifying SigV4 signatures (header and presigned), which s3rver 3.7.1 leaves
 * unimplemented: without it a tampered signature or a lengthened X-Amz-Expires is accepted.
 * Insert before s3rver's router: `server.middleware.splice(server.middleware.length - 1, 0, verifySigV4(secrets))`.
 */
export function verifySigV4(secretFor: (accessKeyId: string) => string | undefined) {
  return async (ctx: KoaContext, next: () => Promise<unknown>) => {
    const [rawPath = '/', rawQuery = ''] = (ctx.req.url ?? '/').split(/\?(.*)/s);
    const signed = signedParts(ctx, new URLSearchParams(rawQuery));
    if (!signed) return next();
    const [accessKeyId = '', date = '', region = '', service = ''] = signed.credential.split('/');
    const secret = secretFor(accessKeyId);
    if (!secret) return next(); // s3rver answers InvalidAccessKeyId itself
    const headers = signed.signedHeaders.split(';');
    const canonicalRequest = [
      ctx.method,
      rawPath,
      canonicalQuery(rawQuery),
      ...headers.map(
        (name) =>
          `${name}:${String(ctx.headers[name] ?? '')
            .trim()
            .replace(/\s+/g, ' ')}`,
      ),
      '',
      signed.signedHeaders,
      signed.payloadHash,
    ].join('\n');
    const scope = `${date}/${region}/${service}/aws4_request`;
    const stringToSign = ['AWS4-HMAC-SHA256', signed.amzDate, scope, sha256(canonicalRequest)].join('\n');
    const key = hmac(hmac(hmac(hmac(`AWS4${secret}`, date), region), service), 'aws4_request');
    const expected = createHmac('sha256', key).update(stringToSign).digest();
    const given = Buffer.from(signed.signature, 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new S3Error(
        'SignatureDoesNotMatch',
        'The request signature we calculated does not match the signature you provided.',
      );
    }
    return next();
  };
}
