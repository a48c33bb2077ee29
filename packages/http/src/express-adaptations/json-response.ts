import type { Express, Request, Response } from 'express';

const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** Whether express would weigh the request's validators (`req.fresh`), which only GET and HEAD have. */
function isConditional(req: Request): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  return req.headers['if-none-match'] !== undefined || req.headers['if-modified-since'] !== undefined;
}

/**
 * `res.json` as express 5 answers an API response, without its general machinery: express sets
 * the Content-Type twice (a MIME lookup, then a parse and re-format to add the charset), reads
 * four app settings and checks freshness on every call. The bytes on the wire are the same.
 * Everything express treats specially still goes to express: a Content-Type or
 * Transfer-Encoding already set, 204/205/304, conditional GETs, and values JSON has no text for.
 */
function answerJson(expressJson: Response['json']): Response['json'] {
  return function json(this: Response, value: unknown) {
    const status = this.statusCode;
    if (status === 204 || status === 205 || status === 304) return expressJson.call(this, value);
    if (this.hasHeader('content-type') || this.hasHeader('transfer-encoding') || isConditional(this.req))
      return expressJson.call(this, value);
    const text = JSON.stringify(value) as string | undefined;
    if (text === undefined) return expressJson.call(this, value);
    // In writeHead's list, not through setHeader: an answer with no other header set then
    // goes out through Node's bare path (see request-id-head.ts). For HEAD, Node drops the body
    // itself and keeps the length, as express's answer has.
    this.writeHead(status, ['Content-Type', JSON_CONTENT_TYPE, 'Content-Length', String(Buffer.byteLength(text))]);
    this.end(text, 'utf8');
    return this;
  };
}

/**
 * Installs the lean `res.json` on one app's responses (express's own stays for every other app).
 * For apps that set none of `json replacer`, `json spaces`, `json escape` and generate no ETags,
 * since the lean path applies none of them: installing it on an app that does is refused, and so
 * is serving one that set them since (assertLeanJsonApplies).
 */
export function answerJsonLean(app: Express): void {
  assertLeanJsonApplies(app);
  app.response.json = answerJson(app.response.json);
}

/** Throws when `app` sets what the lean `res.json` would not apply. */
export function assertLeanJsonApplies(app: Express): void {
  for (const setting of ['json replacer', 'json spaces', 'json escape'] as const) {
    if (app.get(setting) !== undefined)
      throw new Error(`answerJsonLean: the app sets '${setting}', which the lean res.json would ignore`);
  }
  if (app.get('etag fn') !== undefined)
    throw new Error('answerJsonLean: the app generates ETags, which the lean res.json would not');
}
