import { afterAll, beforeAll, expect, it } from 'vitest';
import { ACL } from '@switchboard/contracts';
import { createWebhookFixture, webhookMessages } from '@switchboard/testkit/webhooks';
import { spawnService, type ServiceProcess } from '@switchboard/testkit/processes';
import { startPgBouncer, type RunningPgBouncer } from '@switchboard/testkit/pgbouncer';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { useTestPool } from '@switchboard/testkit/pool';
import { waitFor } from '@switchboard/testkit/wait';
import { createAdmin } from './admin-helpers.ts';

// The gateway and the webhook worker as deployed behind PgBouncer in transaction mode
// (Debian's 1.18): DATABASE_URL the pooler, DATABASE_DIRECT_URL PostgreSQL itself for LISTEN.
const environment = useTestEnvironment();
const pool = useTestPool(environment, 2);
let bouncer: RunningPgBouncer;
const running: ServiceProcess[] = [];

beforeAll(async () => {
  bouncer = await startPgBouncer(environment.databaseUrl);
  const env = environment.processEnv({
    DATABASE_URL: bouncer.urlFor(environment.databaseUrl),
    DATABASE_DIRECT_URL: environment.databaseUrl,
    DATABASE_POOL_MODE: 'transaction',
    GATEWAY_PROCESSES: '1',
  });
  running.push(await spawnService('gateway', env), await spawnService('webhook-worker', env));
}, 90_000);
afterAll(async () => {
  await Promise.all(running.map((service) => service.stop()));
  await bouncer?.stop();
});

it('serves executes, stored by the worker, and admin reads, through the pooler', async () => {
  const base = `http://127.0.0.1:${String(running[0]!.ready['port'])}`;
  expect((await fetch(`${base}/readyz`)).status).toBe(200);
  const hook = await createWebhookFixture(pool());
  for (let index = 0; index < 20; index += 1) {
    const answer = await fetch(`${base}/v1/webhooks/${hook.webhookId}/${hook.token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: `through the pooler ${index}` }),
    });
    expect(answer.status).toBe(204);
  }
  await waitFor(async () => (await webhookMessages(pool(), hook.webhookId)).length === 20, 20_000);

  const admin = await createAdmin(pool(), [ACL.authenticate, ACL.auditLogView]);
  const audit = await fetch(`${base}/v1/admin/audit-logs`, {
    method: 'POST',
    headers: { authorization: `Admin ${admin.key}`, 'content-type': 'application/json' },
    body: '{}',
  });
  expect(audit.status).toBe(200);
  // The credential change feed listens on PostgreSQL itself: it holds its lease.
  const metrics = await (await fetch(`${base}/metrics`)).text();
  expect(metrics).toMatch(/^credential_change_feed_live\{[^}]*\} 1$/m);
});
