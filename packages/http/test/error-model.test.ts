import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { snowflakeSchema } from '@switchboard/contracts';
import { call } from '@switchboard/testkit/http';
import type { ServedApp } from '@switchboard/testkit/network';
import { ApiError, errorMiddleware, jsonBody, MAX_JSON_DEPTH, notFound, requestId, validate } from '../src/index.ts';
import { captureLogger } from './error-model-helpers.ts';
import { startAdaptedApp } from './start-app.ts';

const LIMIT_BYTES = 1024;
const captured = captureLogger();
let app: ServedApp;

const echoSchema = z.object({
  name: z.string().min(1),
  note: z.string().optional(),
  nested: z.object({ id: snowflakeSchema }).optional(),
});

beforeAll(async () => {
  app = await startAdaptedApp({ everyRequest: [requestId()] }, (express) => {
    express.post('/echo', jsonBody({ limitBytes: LIMIT_BYTES }), (req, res) => {
      res.json(validate(echoSchema, req.body));
    });
    express.post('/raw', jsonBody({ limitBytes: LIMIT_BYTES }), (req, res) => {
      res.json({ body: req.body as unknown });
    });
    express.get('/boom', () => {
      throw new Error('database password is hunter2');
    });
    express.get('/boom-async', async () => {
      await Promise.resolve();
      throw new Error('async internals');
    });
    express.get('/zod', () => {
      z.object({ limit: z.number().max(10) }).parse({ limit: 11 });
    });
    express.get('/teapot', () => {
      throw new ApiError('RATE_LIMITED', { body: { retry_after: 3, global: false }, headers: { 'Retry-After': '3' } });
    });
    express.use(notFound());
    express.use(errorMiddleware(captured.logger));
  });
});

afterAll(async () => {
  await app.close();
});

function postJson(path: string, body: string, headers: Record<string, string> = {}) {
  return call('POST', `${app.url}${path}`, { body, headers: { 'Content-Type': 'application/json', ...headers } });
}

describe('error model', () => {
  it('answers an unknown route with a JSON 404 NOT_FOUND and a request id', async () => {
    const answer = await call('GET', `${app.url}/nowhere`);
    expect(answer.status).toBe(404);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
    expect(answer.body).toEqual({ code: 'NOT_FOUND', message: 'Not found.' });
    expect(answer.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('echoes a sane incoming X-Request-Id and replaces one that is not', async () => {
    const sane = await call('GET', `${app.url}/nowhere`, { headers: { 'X-Request-Id': 'edge-42.abc' } });
    expect(sane.headers.get('x-request-id')).toBe('edge-42.abc');
    const insane = await call('GET', `${app.url}/nowhere`, { headers: { 'X-Request-Id': 'a b"c' } });
    expect(insane.headers.get('x-request-id')).not.toBe('a b"c');
    expect(insane.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers malformed JSON with 400 INVALID_FORM_BODY at path root', async () => {
    for (const body of ['{"name": ', 'not json', '"a string"']) {
      const answer = await postJson('/echo', body);
      expect(answer.status).toBe(400);
      expect(answer.body).toMatchObject({ code: 'INVALID_FORM_BODY', message: 'Invalid form body.' });
      expect(answer.body.errors).toEqual([expect.objectContaining({ path: 'root' })]);
    }
  });

  it('answers a body over the limit with 413, with or without Content-Length', async () => {
    const big = JSON.stringify({ name: 'x'.repeat(LIMIT_BYTES) });
    const declared = await postJson('/echo', big);
    expect(declared.status).toBe(413);
    expect(declared.body).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: 'Request body is too large.' });

    const chunked = await chunkedPost(`${app.url}/echo`, big);
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body)).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('answers a body in another content type with 415', async () => {
    const answer = await call('POST', `${app.url}/echo`, {
      body: 'name=x',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(answer.status).toBe(415);
    expect(answer.body).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    const noType = await call('POST', `${app.url}/echo`, { body: new TextEncoder().encode('{"name":"x"}') });
    expect(noType.status).toBe(415);
  });

  it('answers JSON in a charset other than UTF-8 with 415', async () => {
    const answer = await postJson('/echo', '{"name":"x"}', { 'Content-Type': 'application/json; charset=latin1' });
    expect(answer.status).toBe(415);
    expect(answer.body).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
  });

  it('treats a request without a body as {}', async () => {
    const answer = await call('POST', `${app.url}/raw`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ body: {} });
  });

  // Plain UTF-8 JSON of a declared size is read without body-parser (json-body.ts); every
  // other request still goes through it. Both readers must answer every body alike.
  const plainTypes = ['application/json', 'application/json; charset=UTF-8', 'Application/JSON;charset="utf-8"'];
  const generalTypes = ['application/vnd.api+json', 'application/json; charset=utf-8; profile=x'];

  it('reads a body alike through either reader: objects and arrays only, a UTF-8 BOM skipped', async () => {
    const bom = Uint8Array.from([0xef, 0xbb, 0xbf, ...new TextEncoder().encode('{"a":[1]}')]);
    const brokenUtf8 = Uint8Array.from([
      ...new TextEncoder().encode('{"a":"'),
      0xff,
      ...new TextEncoder().encode('"}'),
    ]);
    for (const type of [...plainTypes, ...generalTypes]) {
      const send = (body: string | Uint8Array) =>
        call('POST', `${app.url}/raw`, { body, headers: { 'Content-Type': type } });
      expect((await send(bom)).body, type).toEqual({ body: { a: [1] } });
      expect((await send('[{"b":null}]')).body, type).toEqual({ body: [{ b: null }] });
      expect((await send(brokenUtf8)).body, type).toEqual({ body: { a: '\ufffd' } });
      for (const scalar of ['null', '1', '"a string"', 'true', '  ']) {
        const answer = await send(scalar);
        expect(answer.status, `${type} ${scalar}`).toBe(400);
        expect(answer.body.errors, `${type} ${scalar}`).toEqual([
          expect.objectContaining({ path: 'root', code: 'INVALID_FORMAT' }),
        ]);
      }
      const tooDeep = await send(`${'['.repeat(MAX_JSON_DEPTH + 1)}${']'.repeat(MAX_JSON_DEPTH + 1)}`);
      expect(tooDeep.status, type).toBe(400);
    }
  });

  it('takes a body of exactly the limit through either reader, and answers one byte more with 413', async () => {
    const atLimit = JSON.stringify({ name: 'x'.repeat(LIMIT_BYTES - '{"name":""}'.length) });
    expect(atLimit.length).toBe(LIMIT_BYTES);
    for (const type of [plainTypes[0]!, generalTypes[0]!]) {
      expect((await postJson('/echo', atLimit, { 'Content-Type': type })).status, type).toBe(200);
      expect((await postJson('/echo', `${atLimit} `, { 'Content-Type': type })).status, type).toBe(413);
    }
  });

  it('accepts the +json media types', async () => {
    const answer = await postJson('/raw', '{"a":1}', { 'Content-Type': 'application/merge-patch+json' });
    expect(answer.body).toEqual({ body: { a: 1 } });
  });

  it('reports every invalid field with a dot-joined path and an item code', async () => {
    const answer = await postJson('/echo', JSON.stringify({ name: '', nested: { id: '0x10' } }));
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe('INVALID_FORM_BODY');
    const errors = answer.body.errors as Array<{ path: string; code: string; message: string }>;
    expect(errors.map(({ path, code }) => ({ path, code }))).toEqual([
      { path: 'name', code: 'INVALID_TYPE' },
      { path: 'nested.id', code: 'INVALID_SNOWFLAKE_FORMAT' },
    ]);
    for (const error of errors) expect(error.message.length).toBeGreaterThan(0);
  });

  it('treats "" as absent for optional fields and strips unknown keys', async () => {
    const answer = await postJson('/echo', JSON.stringify({ name: 'ok', note: '', admin: true, nested: { id: 42 } }));
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ name: 'ok', nested: { id: '42' } });
  });

  it('maps a zod error thrown by a route to 400 INVALID_FORM_BODY', async () => {
    const answer = await call('GET', `${app.url}/zod`);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      code: 'INVALID_FORM_BODY',
      message: 'Invalid form body.',
      errors: [expect.objectContaining({ path: 'limit', code: 'TOO_BIG' })],
    });
  });

  it('sends an ApiError with its extra body fields and headers', async () => {
    const answer = await call('GET', `${app.url}/teapot`);
    expect(answer.status).toBe(429);
    expect(answer.headers.get('retry-after')).toBe('3');
    expect(answer.body).toEqual({
      code: 'RATE_LIMITED',
      message: "You're being rate limited.",
      retry_after: 3,
      global: false,
    });
  });

  it('answers an unhandled error with a bare 500 and logs it with the request id', async () => {
    for (const path of ['/boom', '/boom-async']) {
      const answer = await call('GET', `${app.url}${path}`, { headers: { 'X-Request-Id': `req-${path.slice(1)}` } });
      expect(answer.status).toBe(500);
      expect(answer.body).toEqual({ code: 'INTERNAL_SERVER_ERROR', message: 'Internal server error.' });
      expect(JSON.stringify(answer.body)).not.toMatch(/hunter2|internals|Error|at /);
      expect(answer.headers.get('x-request-id')).toBe(`req-${path.slice(1)}`);
      const logged = captured.lines().find((line) => line['requestId'] === `req-${path.slice(1)}`);
      expect(logged).toMatchObject({ level: 50, method: 'GET', route: path, status: 500 });
      expect(JSON.stringify(logged?.['error'])).toMatch(/hunter2|async internals/);
    }
  });
});

/** A POST with Transfer-Encoding: chunked (fetch always declares the length of a string). */
function chunkedPost(url: string, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'Content-Type': 'application/json' } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    for (let offset = 0; offset < body.length; offset += 100) req.write(body.slice(offset, offset + 100));
    req.end();
  });
}
