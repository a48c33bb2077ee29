import { Router } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServedApp } from '@switchboard/testkit';
import { onlyForPaths } from '../../src/index.ts';
import { startApp } from '../start-app.ts';

let app: ServedApp;

beforeAll(async () => {
  app = await startApp((express) => {
    const inner = Router();
    inner.post('/v1/admin/bans/:kind/check', (req, res) => res.send(`check ${req.params['kind']}`));
    inner.get('/v1/.well-known/service', (_req, res) => res.send('discovery'));
    // Answers whatever enters the router, so a request let in shows.
    inner.use((_req, res) => res.send('entered'));
    express.use(onlyForPaths(['/v1/admin/bans/:kind/check', '/v1/.well-known/service'], inner));
    express.use((_req, res) => res.send('passed by'));
  });
});

afterAll(() => app.close());

async function answer(method: string, path: string): Promise<string> {
  const response = await fetch(`${app.url}${path}`, { method });
  return response.text();
}

describe('onlyForPaths', () => {
  it('lets in the paths its routes take, in any case and with a trailing slash, as express matches them', async () => {
    expect(await answer('POST', '/v1/admin/bans/ip/check')).toBe('check ip');
    expect(await answer('POST', '/V1/Admin/bans/email/check')).toBe('check email');
    expect(await answer('POST', '/v1/admin/bans/ip/check/')).toBe('check ip');
    expect(await answer('GET', '/v1/.well-known/service')).toBe('discovery');
  });

  it('lets in any path under a route’s literal beginning, up to its first parameter', async () => {
    expect(await answer('GET', '/v1/admin/bans/ip/list')).toBe('entered');
    expect(await answer('GET', '/v1/.well-known/service/extra')).toBe('entered');
  });

  it('passes every other path by without entering the router', async () => {
    expect(await answer('GET', '/')).toBe('passed by');
    expect(await answer('POST', '/v1/admin/bansip/check')).toBe('passed by');
    expect(await answer('GET', '/v1/admin/api-keys')).toBe('passed by');
    // The dot is the character itself, not any character.
    expect(await answer('GET', '/v1/x/well-known/service')).toBe('passed by');
    expect(await answer('GET', '/v1/Xwell-known/service')).toBe('passed by');
  });
});
