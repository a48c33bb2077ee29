import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';

/** A response body fixed at start: its bytes and strong ETag are computed once, not per request. */
export interface CachedEntity {
  readonly body: Buffer;
  readonly etag: string;
  readonly contentType: string;
  readonly cacheControl: string;
}

/** A strong ETag: the quoted base64url SHA-256 of the bytes. */
export function strongEtag(body: Buffer | string): string {
  return `"${createHash('sha256').update(body).digest('base64url')}"`;
}

export function createCachedEntity(
  body: Buffer | string,
  { contentType, cacheControl }: { contentType: string; cacheControl: string },
): CachedEntity {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  return Object.freeze({ body: bytes, etag: strongEtag(bytes), contentType, cacheControl });
}

const ENTITY_TAG = /(?:W\/)?"([^"]*)"/g;

/**
 * `If-None-Match` evaluation (RFC 9110 §13.1.2): weak comparison, so `W/"x"` matches `"x"`;
 * a comma-separated list matches if any member does; `*` matches any current representation.
 */
export function ifNoneMatchMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const opaque = etag.replace(/^W\//, '');
  for (const match of header.matchAll(ENTITY_TAG)) {
    if (`"${match[1]}"` === opaque) return true;
  }
  return false;
}

/** Answers GET/HEAD with a cached entity: 304 when the client's copy is current, else 200. */
export function sendCachedEntity(req: Request, res: Response, entity: CachedEntity): void {
  res.setHeader('ETag', entity.etag);
  res.setHeader('Cache-Control', entity.cacheControl);
  if (ifNoneMatchMatches(req.get('If-None-Match'), entity.etag)) {
    res.status(304).end();
    return;
  }
  res.setHeader('Content-Type', entity.contentType);
  res.setHeader('Content-Length', entity.body.length);
  res.status(200);
  if (req.method === 'HEAD') res.end();
  else res.end(entity.body);
}
