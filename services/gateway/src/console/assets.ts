import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { RequestHandler } from 'express';

interface Asset {
  /** The URL's file name, with the content's hash: a changed file is a new URL. */
  name: string;
  type: string;
  body: Buffer;
}

function asset(file: string, type: string): Asset {
  const body = readFileSync(new URL(`./assets/${file}`, import.meta.url));
  const hash = createHash('sha256').update(body).digest('hex').slice(0, 16);
  const dot = file.lastIndexOf('.');
  return { name: `${file.slice(0, dot)}.${hash}${file.slice(dot)}`, type, body };
}

/** The console's stylesheet and script, read once at start. */
export const CONSOLE_ASSETS = {
  css: asset('console.css', 'text/css; charset=utf-8'),
  js: asset('console.js', 'text/javascript; charset=utf-8'),
} as const;

const BY_NAME = new Map(Object.values(CONSOLE_ASSETS).map((file) => [file.name, file]));

/**
 * GET /assets/<name>.<hash>.<ext>: the name carries the content hash, so the answer may be
 * cached for a year as immutable; an unknown name falls through (404).
 */
export const serveConsoleAsset: RequestHandler = (req, res, next) => {
  const file = BY_NAME.get(String(req.params['name']));
  if (!file) return next();
  res.setHeader('Content-Type', file.type);
  res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.send(file.body);
};
