import express, { type Express, type RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveOnFreePort, type ServedApp } from '@switchboard/testkit/network';
import { answerJsonLean } from '../../src/express-adaptations/json-response.ts';

/** Each route answers with `res.json` as the gateway's handlers do; both apps serve the same ones. */
const ROUTES: Record<string, RequestHandler> = {
  '/object': (_req, res) => void res.json({ banned: true, reason: 'spam', expires_at: null, matched: '11.0.0.0/24' }),
  '/unicode': (_req, res) => void res.json({ content: 'héllo wörld ✓ 🎉', escaped: '</script>\u2028' }),
  '/large': (_req, res) =>
    void res.json({
      bans: Array.from({ length: 200 }, (_, i) => ({ ip: `10.0.${i >> 8}.${i & 255}`, reason: 'é'.repeat(i % 7) })),
    }),
  '/created': (_req, res) => void res.status(201).json([1, 2, 3]),
  '/null': (_req, res) => void res.json(null),
  '/number': (_req, res) => void res.json(42),
  '/string': (_req, res) => void res.json('just text'),
  '/undefined': (_req, res) => void res.json(undefined),
  '/no-content': (_req, res) => void res.status(204).json({ ignored: true }),
  '/reset': (_req, res) => void res.status(205).json({ ignored: true }),
  '/typed': (_req, res) => void res.type('application/problem+json').json({ title: 'typed' }),
  '/headers': (_req, res) => void res.set('X-Request-Id', 'abc').status(202).json({ queued: true }),
};

function appWith(lean: boolean): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (lean) answerJsonLean(app);
  for (const [path, handler] of Object.entries(ROUTES)) app.all(path, handler);
  return app;
}

interface Answer {
  status: number;
  headers: Record<string, string | null>;
  body: string;
}

const COMPARED_HEADERS = ['content-type', 'content-length', 'transfer-encoding', 'etag', 'x-request-id'];

async function answer(base: string, path: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(`${base}${path}`, init);
  const headers = Object.fromEntries(COMPARED_HEADERS.map((name) => [name, response.headers.get(name)]));
  return { status: response.status, headers, body: await response.text() };
}

let plain: ServedApp;
let lean: ServedApp;

beforeAll(async () => {
  [plain, lean] = await Promise.all([serveOnFreePort(appWith(false)), serveOnFreePort(appWith(true))]);
});

afterAll(async () => {
  await Promise.all([plain.close(), lean.close()]);
});

describe('the lean res.json answers as express does', () => {
  const cases: Array<[string, string, RequestInit?]> = [
    ['an object', '/object'],
    ['multi-byte text (Content-Length in bytes)', '/unicode'],
    ['a body over express’s 1,000-character Buffer threshold', '/large'],
    ['a status set before', '/created'],
    ['null', '/null'],
    ['a number', '/number'],
    ['a string', '/string'],
    ['undefined (no JSON text: express’s own answer)', '/undefined'],
    ['204 (no body, no type)', '/no-content'],
    ['205', '/reset'],
    ['a Content-Type the handler set', '/typed'],
    ['headers the handler set', '/headers'],
    ['HEAD (no body, same length)', '/object', { method: 'HEAD' }],
    ['POST', '/object', { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } }],
    ['a conditional GET (If-None-Match: *)', '/object', { headers: { 'if-none-match': '*' } }],
    [
      'a conditional GET (If-Modified-Since)',
      '/object',
      { headers: { 'if-modified-since': new Date().toUTCString() } },
    ],
  ];

  it.each(cases)('%s', async (_name, path, init) => {
    const [expected, actual] = await Promise.all([answer(plain.url, path, init), answer(lean.url, path, init)]);
    expect(actual).toEqual(expected);
  });

  it('is installed on that app only', () => {
    expect(appWith(true).response.json).not.toBe(express.response.json);
    expect(appWith(false).response.json).toBe(express.response.json);
  });
});

describe('installing it', () => {
  it.each([
    ['json spaces', 2],
    ['json replacer', (_key: string, value: unknown) => value],
    ['json escape', true],
  ])('is refused on an app that sets %s (the lean path would ignore it)', (setting, value) => {
    const app = express();
    app.set('etag', false);
    app.set(setting, value);
    expect(() => answerJsonLean(app)).toThrow(setting);
  });

  it('is refused on an app that generates ETags', () => {
    expect(() => answerJsonLean(express())).toThrow(/ETag/);
  });
});
