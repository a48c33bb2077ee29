import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACL, QUEUES } from '@switchboard/contracts';
import { bullQueue } from '@switchboard/queue';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { createAdmin, type AdminFixture } from './admin-helpers.ts';
import { launchChromium, type TestBrowser } from './browser.ts';
import { failedJob } from './failed-jobs.ts';
import { useGateway } from './helpers.ts';

const environment = useTestEnvironment();
const gateway = useGateway(environment, { RATE_LIMITS_ENABLED: 'false' });
// A page on a loaded 2-core machine renders in seconds, not milliseconds; the whole walk gets
// several of these.
const UI_TIMEOUT_MS = 30_000;
const WALK_TIMEOUT_MS = 120_000;
let chromium: TestBrowser;
let reader: AdminFixture;
let queue: Queue;

beforeAll(async () => {
  chromium = await launchChromium();
  reader = await createAdmin(gateway.pool, [ACL.authenticate, ACL.jobsRead]);
  queue = bullQueue(QUEUES.assetPurges, gateway.redis, gateway.config.REDIS_PREFIX);
});

afterAll(async () => {
  await queue?.close();
  await chromium?.close();
});

describe('queue dashboard in a browser', () => {
  it('signs in with a jobs:read key, lists every queue and shows why a failed job failed', {
    timeout: WALK_TIMEOUT_MS,
  }, async () => {
    const id = await failedJob(queue, environment.redisUrl, 'browser-failure');
    const page = await chromium.context.newPage();
    page.setDefaultTimeout(UI_TIMEOUT_MS);

    await page.goto(`${gateway.url}/v1/admin/dashboard/`);
    expect(new URL(page.url()).pathname).toBe('/v1/admin/dashboard/login');
    await page.fill('#key', reader.key);
    await Promise.all([page.waitForURL(`${gateway.url}/v1/admin/dashboard/`), page.click('button[type=submit]')]);

    const cookies = await chromium.context.cookies(`${gateway.url}/v1/admin/dashboard/`);
    expect(cookies.find((cookie) => cookie.name === 'sb_dashboard_session')).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
      path: '/v1/admin/dashboard',
    });

    for (const name of Object.values(QUEUES)) await page.getByRole('link', { name, exact: true }).first().waitFor();

    await page.getByRole('link', { name: QUEUES.assetPurges, exact: true }).first().click();
    await page.waitForURL(/\/queue\/asset-purges/);
    // The status tabs are upper-cased by CSS and carry their count: "FAILED 1".
    await page
      .getByRole('link', { name: /^failed/i })
      .first()
      .click();
    await page.waitForURL(/status=failed/);
    await page.getByRole('link', { name: `#${id} browser-failure` }).click();
    await page.waitForURL(new RegExp(`/queue/asset-purges/${id}(\\?|$)`));
    await page.getByRole('tabpanel', { name: 'Error' }).getByText('browser-failure could not run').waitFor();

    // Sign-out is a form posted by the browser itself (its Origin passes the CSRF check).
    await page.goto(`${gateway.url}/v1/admin/dashboard/logout`);
    await Promise.all([page.waitForURL(/\/login$/), page.click('button[type=submit]')]);
    expect(
      (await chromium.context.cookies(`${gateway.url}/v1/admin/dashboard/`)).map((cookie) => cookie.name),
    ).not.toContain('sb_dashboard_session');
    await page.goto(`${gateway.url}/v1/admin/dashboard/queue/asset-purges`);
    expect(new URL(page.url()).pathname).toBe('/v1/admin/dashboard/login');
    await page.close();
  });
});
