import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACL, QUEUES } from '@switchboard/contracts';
import { bullQueue } from '@switchboard/queue';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { adminCall, createAdmin, type AdminFixture } from './admin-helpers.ts';
import { failedJob } from './failed-jobs.ts';
import { useGateway } from './helpers.ts';

const environment = useTestEnvironment();
const gateway = useGateway(environment, { RATE_LIMITS_ENABLED: 'false' });
let reader: AdminFixture;
let writer: AdminFixture;
let queue: Queue;

/** A job on the asset-purges queue that fails for good at once, as a worker would fail it. */
const failedAssetPurge = (name: string) => failedJob(queue, environment.redisUrl, name);

beforeAll(async () => {
  reader = await createAdmin(gateway.pool, [ACL.authenticate, ACL.jobsRead]);
  writer = await createAdmin(gateway.pool, [ACL.authenticate, ACL.jobsRead, ACL.jobsWrite]);
  queue = bullQueue(QUEUES.assetPurges, gateway.redis, gateway.config.REDIS_PREFIX);
});

afterAll(async () => {
  await queue?.close();
});

describe('failed jobs (docs/decisions.md#failed-jobs)', () => {
  it('lists failed jobs of every queue, newest first, and of one queue', async () => {
    const first = await failedAssetPurge('first-failure');
    const second = await failedAssetPurge('second-failure');
    const all = await adminCall(gateway.url, { method: 'GET', path: '/v1/admin/jobs/failed', key: reader.key });
    expect(all.status).toBe(200);
    expect(all.body.total).toBeGreaterThanOrEqual(2);
    const mine = all.body.jobs.filter((job: { id: string }) => job.id === first || job.id === second);
    expect(mine).toEqual([
      {
        queue: 'asset-purges',
        id: second,
        name: 'second-failure',
        attempts: 1,
        last_error: 'second-failure could not run',
        failed_at: expect.any(String),
      },
      {
        queue: 'asset-purges',
        id: first,
        name: 'first-failure',
        attempts: 1,
        last_error: 'first-failure could not run',
        failed_at: expect.any(String),
      },
    ]);
    const one = await adminCall(gateway.url, {
      method: 'GET',
      path: '/v1/admin/jobs/failed?queue=asset-purges&limit=1',
      key: reader.key,
    });
    expect(one.body.jobs).toHaveLength(1);
    expect(one.body.jobs[0].id).toBe(second);
    const none = await adminCall(gateway.url, {
      method: 'GET',
      path: '/v1/admin/jobs/failed?queue=bulk-operations',
      key: reader.key,
    });
    expect(none.body).toEqual({ jobs: [], total: 0 });
    expect(
      (await adminCall(gateway.url, { method: 'GET', path: '/v1/admin/jobs/failed?queue=nope', key: reader.key }))
        .status,
    ).toBe(400);
  });

  it('retries a failed job (audited), and says which could not be retried', async () => {
    const id = await failedAssetPurge('to-retry');
    const retry = (key: string, jobs: unknown) =>
      adminCall(gateway.url, {
        method: 'POST',
        path: '/v1/admin/jobs/retry',
        key,
        body: { jobs },
        headers: { 'X-Audit-Log-Reason': 'fixed the store' },
      });
    expect((await retry(reader.key, [{ queue: 'asset-purges', id }])).status).toBe(403);
    const answer = await retry(writer.key, [
      { queue: 'asset-purges', id },
      { queue: 'asset-purges', id: 'no-such-job' },
    ]);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      retried: [{ queue: 'asset-purges', id }],
      errors: [{ queue: 'asset-purges', id: 'no-such-job', error: 'UNKNOWN_JOB' }],
    });
    expect(await queue.getJobState(id)).toBe('waiting');
    expect((await retry(writer.key, [{ queue: 'asset-purges', id }])).body.errors).toEqual([
      { queue: 'asset-purges', id, error: 'NOT_FAILED' },
    ]);
    const { rows } = await gateway.pool.query(
      'SELECT action, target_id, audit_log_reason AS reason FROM audit_logs WHERE target_type = $1 AND admin_user_id = $2',
      ['job', writer.adminId],
    );
    expect(rows).toEqual([{ action: 'retry_job', target_id: `asset-purges:${id}`, reason: 'fixed the store' }]);
  });
});
