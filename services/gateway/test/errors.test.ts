import { describe, expect, it } from 'vitest';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { useGateway } from './helpers.ts';

const environment = useTestEnvironment();
const gateway = useGateway(environment);

describe('gateway error model', () => {
  it('answers an unknown route with a JSON 404 NOT_FOUND and a request id', async () => {
    for (const path of ['/v1/nope', '/', '/v1/admin/unknown']) {
      const response = await fetch(`${gateway.url}${path}`, { method: 'POST' });
      expect(response.status).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await response.json()).toEqual({ code: 'NOT_FOUND', message: 'Not found.' });
      expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('echoes the caller request id on every answer', async () => {
    for (const path of ['/nope', '/healthz', '/v1/.well-known/service']) {
      const response = await fetch(`${gateway.url}${path}`, { headers: { 'X-Request-Id': 'lb-7f3a' } });
      expect(response.headers.get('x-request-id')).toBe('lb-7f3a');
    }
  });

  it('does not advertise the framework', async () => {
    const response = await fetch(`${gateway.url}/healthz`);
    expect(response.headers.get('x-powered-by')).toBeNull();
  });
});
