import { appRoutes } from '@bull-board/api/dist/routes.js';
import { describe, expect, it } from 'vitest';
import { matchWriteRoute } from '../src/dashboard/audit.ts';

type Route = { method: string | string[]; route: string | string[] };

/** Every (method, path pattern) bull-board's API serves. */
const bullBoardRoutes = (appRoutes.api as Route[]).flatMap((route) =>
  [route.method]
    .flat()
    .flatMap((method) => [route.route].flat().map((pattern) => ({ method: method.toUpperCase(), pattern }))),
);

/** A concrete path for a pattern: each parameter gets a value of its own. */
function concrete(pattern: string): { path: string; params: Record<string, string> } {
  const params: Record<string, string> = {};
  const path = pattern.replace(/:(\w+)/g, (_match, name: string) => (params[name] = `${name}-value`));
  return { path, params };
}

describe('the dashboard audit table', () => {
  it('knows every change bull-board offers, with its parameters', () => {
    const writes = bullBoardRoutes.filter((route) => route.method !== 'GET');
    expect(writes.length).toBeGreaterThan(0);
    for (const { method, pattern } of writes) {
      const { path, params } = concrete(pattern);
      // An action to audit, or null for one the dashboard refuses: never unknown.
      expect(matchWriteRoute(method, path), `${method} ${pattern}`).toEqual({
        action: expect.toSatisfy((action) => action === null || typeof action === 'string'),
        params,
      });
    }
  });

  it('refuses adding jobs and editing their data', () => {
    expect(matchWriteRoute('POST', '/api/queues/asset-purges/add')?.action).toBeNull();
    expect(matchWriteRoute('PATCH', '/api/queues/asset-purges/1/update-data')?.action).toBeNull();
  });

  it('matches no read', () => {
    for (const { pattern } of bullBoardRoutes.filter((route) => route.method === 'GET')) {
      expect(matchWriteRoute('GET', concrete(pattern).path)).toBeNull();
    }
  });

  it('decodes parameters and refuses empty ones', () => {
    expect(matchWriteRoute('PUT', '/api/queues/asset-purges/a%2Fb/retry')).toEqual({
      action: 'retry_job',
      params: { queueName: 'asset-purges', jobId: 'a/b' },
    });
    expect(matchWriteRoute('PUT', '/api/queues/asset-purges//retry')).toBeNull();
    expect(matchWriteRoute('PUT', '/api/queues/asset-purges/%E0%A4%A/retry')).toBeNull();
    expect(matchWriteRoute('PUT', '/api/queues/asset-purges/retry/failed')).toEqual({
      action: 'retry_all_jobs',
      params: { queueName: 'asset-purges', queueStatus: 'failed' },
    });
  });
});
