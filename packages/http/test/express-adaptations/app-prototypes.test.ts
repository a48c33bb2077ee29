import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdaptedApp, createAppServer } from '../../src/index.ts';

const app = createAdaptedApp();
// What an app adds to its response prototype once made, before the server is.
Object.assign(app.response, { greet: 'added before the server' });
app.get('/greet', (_req, res) => {
  res.type('text/plain').send((res as unknown as { greet: string }).greet);
});
app.get('/items/:id', (req, res) => {
  res.locals['seen'] = req.params['id'];
  res.status(201).json({
    id: res.locals['seen'],
    q: req.query['q'],
    header: req.get('x-test'),
    sameApp: req.app === app && res.app === app,
  });
});
app.get('/fail', () => {
  throw new Error('handler failed');
});
app.use(((error: Error, _req, res, _next) => {
  res.status(500).type('text/plain').send(error.message);
}) satisfies ErrorRequestHandler);

let server: Server;
let origin: string;
/** What a listener attached before the app saw: were the objects born with the app's prototypes? */
const bornWith: { request: boolean; response: boolean }[] = [];

beforeAll(async () => {
  server = createAppServer(app);
  server.on('request', (req, res) => {
    bornWith.push({
      request: Object.getPrototypeOf(req) === app.request,
      response: Object.getPrototypeOf(res) === app.response,
    });
  });
  server.on('request', app);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.close();
  await once(server, 'close');
});

describe('createAppServer', () => {
  it('makes requests and responses with the app prototypes before express sees them', async () => {
    bornWith.length = 0;
    await (await fetch(`${origin}/items/7`)).arrayBuffer();
    expect(bornWith).toEqual([{ request: true, response: true }]);
  });

  it('serves express as before: params, query, headers, locals, req.app, status and JSON', async () => {
    const answer = await fetch(`${origin}/items/42?q=hello`, { headers: { 'x-test': 'yes' } });
    expect(answer.status).toBe(201);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await answer.json()).toEqual({ id: '42', q: 'hello', header: 'yes', sameApp: true });
  });

  it('keeps what the app added to its prototypes before the server was made', async () => {
    expect(await (await fetch(`${origin}/greet`)).text()).toBe('added before the server');
  });

  it('keeps what the adaptations put on the prototypes: the lean json and the id in the head', () => {
    expect(app.response.json).not.toBe(express.response.json);
    expect(app.response.writeHead).not.toBe(express.response.writeHead);
  });

  it('is refused for an app not made by createAdaptedApp, and for one that set what the lean json ignores', () => {
    expect(() => createAppServer(express())).toThrow(/createAdaptedApp/);
    const spaced = createAdaptedApp();
    spaced.set('json spaces', 2);
    expect(() => createAppServer(spaced)).toThrow(/json spaces/);
  });

  it('still reaches error handlers and the final 404', async () => {
    const failed = await fetch(`${origin}/fail`);
    expect([failed.status, await failed.text()]).toEqual([500, 'handler failed']);
    expect((await fetch(`${origin}/nowhere`)).status).toBe(404);
  });
});
