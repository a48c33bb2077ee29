import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { call } from '@switchboard/testkit/http';
import { createWebhookFixture } from '@switchboard/testkit/webhooks';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { useGateway } from './helpers.ts';
import { executeUrl } from './webhook-execute-helpers.ts';

const environment = useTestEnvironment();
const QUERY_TIMEOUT_MS = 300;
const gateway = useGateway(environment, {
  RATE_LIMITS_ENABLED: 'false',
  DATABASE_QUERY_TIMEOUT_MS: String(QUERY_TIMEOUT_MS),
});

describe('a statement past DATABASE_QUERY_TIMEOUT_MS', () => {
  it('answers 503 with Retry-After within the bound, not 500, and serves again once the database does', async () => {
    const hook = await createWebhookFixture(gateway.pool);
    const deliveryId = randomUUID();
    const url = executeUrl(gateway, hook, '/codehost');
    const request = {
      body: { zen: 'Keep it logically awesome.', hook_id: 1 },
      headers: { 'X-GitHub-Event': 'ping', 'X-GitHub-Delivery': deliveryId },
    };
    // Another transaction holds the webhooks table, uncommitted: the gateway's read of the
    // webhook (not in its memory yet) waits on that lock, as it would on a database stalled by
    // anything else.
    const blocker = await gateway.pool.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE webhooks IN ACCESS EXCLUSIVE MODE');
      const started = performance.now();
      const answer = await call('POST', url, request);
      const elapsedMs = performance.now() - started;
      expect(answer.status).toBe(503);
      expect(answer.headers.get('retry-after')).toBe('5');
      expect(answer.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      expect(elapsedMs).toBeGreaterThanOrEqual(QUERY_TIMEOUT_MS);
      // The bound plus the client's grace and generous slack for a busy machine: not a hang.
      expect(elapsedMs).toBeLessThan(QUERY_TIMEOUT_MS + 5_000);
    } finally {
      await blocker.query('ROLLBACK');
      blocker.release();
    }
    // The sender retries once the database answers again: the delivery is taken.
    expect((await call('POST', url, request)).status).toBe(204);
  });
});
