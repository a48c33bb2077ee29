import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '@switchboard/testkit/http';
import type { ServedApp } from '@switchboard/testkit/network';
import { requestId } from '../src/index.ts';
import { startAdaptedApp } from './start-app.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
let app: ServedApp;

beforeAll(async () => {
  app = await startAdaptedApp({ everyRequest: [requestId()] }, (express) => {
    express.post('/bare', (_req, res) => void res.status(204).end());
    express.get(
      '/list',
      (_req, res) => void res.writeHead(200, ['Content-Type', 'text/plain', 'X-Extra', 'yes']).end('list'),
    );
    express.get(
      '/object',
      (_req, res) => void res.writeHead(201, { 'Content-Type': 'text/plain', 'X-Extra': 'yes' }).end('object'),
    );
    express.get('/reason', (_req, res) => void res.writeHead(202, 'Taken', ['X-Extra', 'yes']).end());
    express.get('/set-before', (_req, res) => void res.set('X-Extra', 'yes').type('text').send('set'));
    express.get('/own-id', (_req, res) => void res.set('X-Request-Id', 'handler-chose').status(204).end());
    express.get('/json', (req, res) => void res.json({ id: req.requestId }));
  });
});

afterAll(async () => {
  await app.close();
});

describe('X-Request-Id', () => {
  it('is on a bare 204, whose head has no other header of ours', async () => {
    const answer = await call('POST', `${app.url}/bare`);
    expect(answer.status).toBe(204);
    expect(answer.headers.get('x-request-id')).toMatch(UUID);
  });

  it('joins the headers however the handler writes its head, once', async () => {
    for (const [path, status] of [
      ['/list', 200],
      ['/object', 201],
      ['/reason', 202],
      ['/set-before', 200],
    ] as const) {
      const answer = await call('GET', `${app.url}${path}`);
      expect(answer.status, path).toBe(status);
      expect(answer.headers.get('x-extra'), path).toBe('yes');
      expect(answer.headers.get('x-request-id'), path).toMatch(UUID);
    }
    expect((await call('GET', `${app.url}/list`)).headers.get('content-type')).toBe('text/plain');
    expect((await call('GET', `${app.url}/reason`)).body).toBeUndefined();
  });

  it('is the id the request carries (as logs see it), a sane incoming one kept', async () => {
    const made = await call('GET', `${app.url}/json`);
    expect(made.body.id).toMatch(UUID);
    expect(made.headers.get('x-request-id')).toBe(made.body.id);
    const kept = await call('GET', `${app.url}/json`, { headers: { 'X-Request-Id': 'lb-7f3a' } });
    expect(kept.body.id).toBe('lb-7f3a');
    expect(kept.headers.get('x-request-id')).toBe('lb-7f3a');
  });

  it('leaves an id the handler set itself', async () => {
    const answer = await call('GET', `${app.url}/own-id`);
    expect(answer.headers.get('x-request-id')).toBe('handler-chose');
  });

  it('differs between requests', async () => {
    const ids = await Promise.all(
      [1, 2, 3].map(async () => (await call('POST', `${app.url}/bare`)).headers.get('x-request-id')),
    );
    expect(new Set(ids).size).toBe(3);
  });
});
