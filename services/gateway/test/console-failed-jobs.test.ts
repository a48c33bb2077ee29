import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACL, QUEUES } from '@switchboard/contracts';
import { bullQueue } from '@switchboard/queue';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { createAdmin } from './admin-helpers.ts';
import { signInToConsole, textOf } from './console-helpers.ts';
import { failedJob } from './failed-jobs.ts';
import { useGateway } from './helpers.ts';

const environment = useTestEnvironment();
const gateway = useGateway(environment, { RATE_LIMITS_ENABLED: 'false' });
let queue: Queue;

/** A job on the asset-purges queue that fails for good at once, as a worker would fail it. */
const failedAssetPurge = (name: string) => failedJob(queue, environment.redisUrl, name);

beforeAll(async () => {
  queue = bullQueue(QUEUES.assetPurges, gateway.redis, gateway.config.REDIS_PREFIX);
});

afterAll(async () => {
  await queue?.close();
});

async function retryEntries(adminId: string): Promise<Array<{ target_id: string; reason: string | null }>> {
  const { rows } = await gateway.pool.query<{ target_id: string; reason: string | null }>(
    `SELECT target_id, audit_log_reason AS reason FROM audit_logs WHERE admin_user_id = $1 AND action = 'retry_job'`,
    [adminId],
  );
  return rows;
}

describe('console failed jobs', () => {
  it('shows neither the screen nor the dashboard link without jobs:read, and serves neither', async () => {
    const other = await createAdmin(gateway.pool, [ACL.authenticate, ACL.auditLogView]);
    const client = await signInToConsole(gateway.url, other.key);
    const home = (await client.get('/')).body as string;
    expect(home).not.toContain('/console/jobs/failed');
    expect(home).not.toContain('/console/queue-dashboard');
    const list = await client.get('/jobs/failed');
    expect(list.status).toBe(403);
    expect(list.body).toContain('Missing ACL: jobs:read.');
    expect((await client.get('/queue-dashboard')).status).toBe(403);
    expect((await client.get('/jobs/failed/retry?queue=asset-purges&id=1')).status).toBe(403);
    const retry = await client.post('/jobs/failed/retry', {
      queue: 'asset-purges',
      id: '1',
      reason: 'r',
      confirm: 'retry',
    });
    expect(retry.status).toBe(403);
    expect(await retryEntries(other.adminId)).toEqual([]);
  });

  it('lists failed jobs with queue, name, attempts, error and time; jobs:read alone sees no Retry', async () => {
    const id = await failedAssetPurge('listed-failure');
    const reader = await createAdmin(gateway.pool, [ACL.authenticate, ACL.jobsRead]);
    const client = await signInToConsole(gateway.url, reader.key);
    const home = (await client.get('/')).body as string;
    expect(home).toContain('href="/console/jobs/failed"');
    expect(home).toContain('href="/console/queue-dashboard"');
    const dashboard = await client.get('/queue-dashboard');
    expect(dashboard.status).toBe(303);
    expect(dashboard.headers.get('location')).toBe('/v1/admin/dashboard/');

    const list = await client.get('/jobs/failed');
    expect(list.status).toBe(200);
    const page = list.body as string;
    const row = new RegExp(
      `<tr>\\s*<td>asset-purges</td>\\s*<td>listed-failure <span class="hint">\\(id <code>${id}</code>\\)</span></td>\\s*<td>1</td>\\s*<td>listed-failure could not run</td>\\s*<td><time datetime="[^"]+">[^<]+ UTC</time>`,
    );
    expect(page).toMatch(row);
    expect(page).not.toContain('Retry…');
    expect(page).not.toContain('/console/jobs/failed/retry');
    expect((await client.get(`/jobs/failed/retry?queue=asset-purges&id=${id}`)).status).toBe(403);
    const filtered = textOf((await client.get('/jobs/failed?queue=bulk-operations')).body as string);
    expect(filtered).toContain('0 failed jobs in bulk-operations.');
    expect(filtered).toContain('No failed jobs here.');
  });

  it('retries a job only through the confirmation page, with the reason audited', async () => {
    const id = await failedAssetPurge('to-retry');
    const writer = await createAdmin(gateway.pool, [ACL.authenticate, ACL.jobsRead, ACL.jobsWrite]);
    const client = await signInToConsole(gateway.url, writer.key);
    const list = (await client.get('/jobs/failed?queue=asset-purges')).body as string;
    const link = `/console/jobs/failed/retry?queue=asset-purges&amp;id=${id}`;
    expect(list).toContain(`<a href="${link}" data-confirm aria-label="Retry job ${id} of asset-purges">Retry…</a>`);

    const confirm = await client.get(`/jobs/failed/retry?queue=asset-purges&id=${id}`);
    expect(confirm.status).toBe(200);
    expect(confirm.body).toContain(`Retry job ${id}?`);
    expect(confirm.body).toContain('name="confirm" value="retry"');
    // Without the confirmation, or without a reason, nothing is retried.
    const unconfirmed = await client.post('/jobs/failed/retry', { queue: 'asset-purges', id, reason: 'x' });
    expect(unconfirmed.status).toBe(200);
    expect(unconfirmed.body).toContain('Retry the job');
    const noReason = await client.post('/jobs/failed/retry', { queue: 'asset-purges', id, confirm: 'retry' });
    expect(noReason.status).toBe(400);
    expect(noReason.body).toContain('Give a reason.');
    expect(await queue.getJobState(id)).toBe('failed');

    const form = { queue: 'asset-purges', id, reason: 'store is back', confirm: 'retry' };
    const retried = await client.post('/jobs/failed/retry', form);
    expect(retried.status).toBe(303);
    expect(retried.headers.get('location')).toBe('/console/jobs/failed?done=job-retried');
    expect(await queue.getJobState(id)).toBe('waiting');
    expect(await retryEntries(writer.adminId)).toEqual([{ target_id: `asset-purges:${id}`, reason: 'store is back' }]);
    expect((await client.get('/jobs/failed?done=job-retried')).body).toContain('The job is back in its queue');

    const again = await client.post('/jobs/failed/retry', form);
    expect(again.status).toBe(409);
    expect(again.body).toContain('The job is no longer failed');
  });

  it('pages by offset with Previous and Next, keeping the queue and page size', async () => {
    const reader = await createAdmin(gateway.pool, [ACL.authenticate, ACL.jobsRead]);
    await failedAssetPurge('paged-1');
    await failedAssetPurge('paged-2');
    const client = await signInToConsole(gateway.url, reader.key);
    const first = (await client.get('/jobs/failed?queue=asset-purges&limit=1')).body as string;
    expect(first).not.toContain('Previous page');
    const next = /<a href="\/console(\/jobs\/failed\?[^"]+)" rel="next">Next page<\/a>/.exec(first)![1]!;
    expect(next.replace(/&amp;/g, '&')).toBe('/jobs/failed?queue=asset-purges&limit=1&offset=1');
    const second = (await client.get(next.replace(/&amp;/g, '&'))).body as string;
    expect(second).toContain(
      '<a href="/console/jobs/failed?queue=asset-purges&amp;limit=1" rel="prev">Previous page</a>',
    );
    expect(textOf(first)).toContain('paged-2');
    expect(textOf(second)).toContain('paged-1');
  });
});
