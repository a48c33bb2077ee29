import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Queue } from 'bullmq';
import { ACL, QUEUES } from '@switchboard/contracts';
import { bullQueue } from '@switchboard/queue';
import { completeArchive, failArchive, insertArchive, insertGuild, insertUsers, startArchive } from '@switchboard/db';
import { createGuildFixture, createPurgeGuildFixture } from '@switchboard/testkit/guilds';
import { holdRowLock } from '@switchboard/testkit/row-lock';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { adminCall, createAdmin, fixtureIds, type AdminFixture } from './admin-helpers.ts';
import type { Page, Locator } from 'playwright-core';
import { seriousAxeViolations } from './axe.ts';
import { launchChromium, type TestBrowser } from './browser.ts';
import { failedJob } from './failed-jobs.ts';
import { useOperationGateways } from './operation-gateways.ts';

const environment = useTestEnvironment();
const { gateway, impatient } = useOperationGateways(environment, ['bulk-worker', 'asset-purge-worker']);
// A page on a loaded 2-core machine renders in seconds, not milliseconds; the walk gets several.
const UI_TIMEOUT_MS = 30_000;
const WALK_TIMEOUT_MS = 180_000;
const BANNED = '198.51.100.23';
let chromium: TestBrowser;
let operator: AdminFixture;
/** Where the failed jobs the walks see are made (nothing consumes it here). */
let jobQueue: Queue;

beforeAll(async () => {
  chromium = await launchChromium();
  jobQueue = bullQueue(QUEUES.webhookDeliveries, gateway.redis, gateway.config.REDIS_PREFIX);
  operator = await createAdmin(gateway.pool, [
    ACL.authenticate,
    ACL.apiKeyManage,
    ACL.banIpAdd,
    ACL.banIpCheck,
    ACL.banIpRemove,
  ]);
  // Older bans, so the list has a second page at two a page.
  const seeded = await adminCall(gateway.url, {
    method: 'POST',
    path: '/v1/admin/bans/ip/add',
    key: operator.key,
    body: { ips: ['198.51.100.1', '198.51.100.2', '198.51.100.3'], reason: 'seeded' },
  });
  expect(seeded.status).toBe(204);
});

afterAll(async () => {
  await jobQueue?.close();
  await chromium?.close();
});

/** Presses Tab until `target` has the focus; fails the test if it never gets it. */
async function tabTo(page: Page, target: Locator): Promise<void> {
  let focused = false;
  for (let presses = 0; presses < 40 && !focused; presses++) {
    await page.keyboard.press('Tab');
    focused = await target.evaluate((element) => element.ownerDocument.activeElement === element);
  }
  expect(focused).toBe(true);
}

/** A new page with the walks' timeout, collecting what the browser reports of CSP violations. */
async function watchedPage(): Promise<{ page: Page; cspViolations: string[] }> {
  const page = await chromium.context.newPage();
  page.setDefaultTimeout(UI_TIMEOUT_MS);
  const cspViolations: string[] = [];
  page.on('console', (message) => {
    if (message.text().includes('Content Security Policy')) cspViolations.push(message.text());
  });
  return { page, cspViolations };
}

/** Signs in at `baseUrl`'s console with the keyboard only: Tab to the key field, type, Enter. */
async function signInByKeyboard(page: Page, baseUrl: string, key: string): Promise<void> {
  await page.goto(`${baseUrl}/console/sign-in`);
  await tabTo(page, page.locator('#key'));
  await page.keyboard.type(key);
  await Promise.all([page.waitForURL(`${baseUrl}/console/`), page.keyboard.press('Enter')]);
}

describe('operator console in a browser', () => {
  it('signs in, creates a key (one ACL ticked by keyboard) and revokes it, bans an IP, pages and removes it', {
    timeout: WALK_TIMEOUT_MS,
  }, async () => {
    const { page, cspViolations } = await watchedPage();

    await page.goto(`${gateway.url}/console/`);
    expect(new URL(page.url()).pathname).toBe('/console/sign-in');
    await page.fill('#key', operator.key);
    await Promise.all([page.waitForURL(`${gateway.url}/console/`), page.click('button[type=submit]')]);
    const cookies = await chromium.context.cookies(`${gateway.url}/console/`);
    expect(cookies.find((cookie) => cookie.name === 'sb_console_session')).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
      path: '/console',
    });

    // API keys: create one, ticking one ACL with the keyboard only.
    await page.getByRole('link', { name: 'API keys' }).first().click();
    await page.getByRole('link', { name: 'Create a key' }).click();
    await page.fill('#name', 'browser-made');
    await page.selectOption('#expires', '7');
    const target = page.locator('[id="acl-ban:ip:check"]');
    await tabTo(page, target);
    await page.keyboard.press('Space');
    await expect.poll(() => target.isChecked()).toBe(true);
    // The group's expander says its state: collapsed by keyboard, then open again.
    const expander = page.getByRole('group', { name: /IP bans/ }).getByRole('button', { name: 'Show or hide' });
    await expander.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => expander.getAttribute('aria-expanded')).toBe('false');
    await expect.poll(() => target.isVisible()).toBe(false);
    await page.keyboard.press('Enter');
    await expect.poll(() => expander.getAttribute('aria-expanded')).toBe('true');
    await Promise.all([
      page.waitForURL(/\/console\/keys\/created\//),
      page.getByRole('button', { name: 'Create key' }).click(),
    ]);
    const secret = await page.locator('#secret').inputValue();
    expect(secret.length).toBeGreaterThan(20);
    await page.getByRole('button', { name: 'Copy the secret' }).click();
    await expect.poll(() => page.locator('#copy-status').textContent()).toMatch(/Copied|Copy failed/);
    await page.reload();
    await page.getByText('already shown').waitFor();
    const listed = await adminCall(gateway.url, { method: 'GET', path: '/v1/admin/api-keys', key: operator.key });
    const made = (listed.body as Array<{ name: string; acls: string[] }>).find((key) => key.name === 'browser-made');
    expect(made?.acls).toEqual([ACL.banIpCheck]);

    // Revoke it again, confirmed in the dialog with a reason.
    await page.getByRole('link', { name: 'API keys' }).first().click();
    await page.getByRole('link', { name: 'Revoke the key browser-made' }).click();
    const revoke = page.getByRole('dialog', { name: 'Revoke “browser-made”?' });
    await revoke.getByLabel('Reason (recorded in the audit log)').fill('walk done with it');
    await Promise.all([
      page.waitForURL(/done=key-revoked/),
      revoke.getByRole('button', { name: 'Revoke the key' }).click(),
    ]);
    await page.getByRole('status').filter({ hasText: 'The key is revoked' }).waitFor();
    expect(await page.getByRole('cell', { name: 'browser-made', exact: true }).count()).toBe(0);
    const after = await adminCall(gateway.url, { method: 'GET', path: '/v1/admin/api-keys', key: operator.key });
    expect((after.body as Array<{ name: string }>).map((key) => key.name)).not.toContain('browser-made');

    // IP bans: add after the review page.
    await page.getByRole('link', { name: 'IP bans' }).first().click();
    await page.fill('#values', BANNED);
    await page.fill('#reason', 'browser walk');
    await page.selectOption('#expires', '86400');
    await page.getByRole('button', { name: 'Review the ban' }).click();
    await page.getByRole('heading', { name: 'Ban this address or CIDR range?' }).waitFor();
    await Promise.all([
      page.waitForURL(/done=ban-added/),
      page.getByRole('button', { name: 'Ban', exact: true }).click(),
    ]);
    await page.getByRole('status').filter({ hasText: 'The ban is in force.' }).waitFor();

    // Page through two at a time: the new ban first, the seeded ones on the next page, and back.
    await page.goto(`${gateway.url}/console/bans/ip?limit=2`);
    await page.getByRole('cell', { name: BANNED, exact: true }).waitFor();
    await page.getByRole('link', { name: 'Next page' }).click();
    await page.getByRole('cell', { name: '198.51.100.1', exact: true }).waitFor();
    await page.getByText('Last page.').waitFor();
    await page.getByRole('link', { name: 'Previous page' }).click();
    await page.getByRole('cell', { name: BANNED, exact: true }).waitFor();
    expect(await page.getByRole('link', { name: 'Previous page' }).count()).toBe(0);

    // Remove it through the confirmation, shown in a dialog over the list: Escape leaves it, with
    // the focus back on the link; the second time the dialog's form is sent.
    const remove = page.getByRole('link', { name: `Remove the ban on ${BANNED}` });
    const listUrl = page.url();
    await remove.click();
    const dialog = page.getByRole('dialog', { name: `Remove the ban on ${BANNED}?` });
    await dialog.waitFor();
    expect(page.url()).toBe(listUrl);
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await remove.evaluate((element) => element.ownerDocument.activeElement === element)).toBe(true);
    await remove.click();
    // The list's add form has a reason field too: the dialog's is its own, found by its label.
    await dialog.getByLabel('Reason (recorded in the audit log)').fill('walk done');
    await Promise.all([
      page.waitForURL(/done=ban-removed/),
      dialog.getByRole('button', { name: 'Remove the ban' }).click(),
    ]);
    await page.getByRole('status').filter({ hasText: 'The ban is removed.' }).waitFor();
    await page.fill('#check', BANNED);
    await page.getByRole('button', { name: 'Check' }).click();
    await page.getByText('Not banned').waitFor();

    expect(cspViolations).toEqual([]);
    await page.close();
  });

  it('searches the audit log, expands a row by keyboard, and follows an archive to ready without a reload', {
    timeout: WALK_TIMEOUT_MS,
  }, async () => {
    const auditor = await createAdmin(gateway.pool, [
      ACL.authenticate,
      ACL.auditLogView,
      ACL.archiveTriggerGuild,
      ACL.archiveViewAll,
    ]);
    const ownerId = fixtureIds.next();
    await insertUsers(gateway.pool, [{ id: ownerId, username: `u${ownerId.slice(-8)}` }]);
    const guildId = fixtureIds.next();
    await insertGuild(gateway.pool, { id: guildId, name: 'walked', ownerId });
    const { page, cspViolations } = await watchedPage();
    await page.goto(`${gateway.url}/console/sign-in`);
    await page.fill('#key', auditor.key);
    await Promise.all([page.waitForURL(`${gateway.url}/console/`), page.click('button[type=submit]')]);

    // Audit log: the seeded bans' entries, found by their reason; one row opened by keyboard.
    await page.getByRole('link', { name: 'Audit log' }).first().click();
    await page.fill('#q', 'seeded');
    await page.selectOption('#sort', 'relevance');
    await Promise.all([page.waitForURL(/q=seeded/), page.getByRole('button', { name: 'Show entries' }).click()]);
    const expander = page.getByRole('button', { name: /^Details of entry/ }).first();
    const details = page.locator(`[id="${await expander.getAttribute('aria-controls')}"]`);
    await expect.poll(() => expander.getAttribute('aria-expanded')).toBe('false');
    await expect.poll(() => details.isVisible()).toBe(false);
    await expander.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => expander.getAttribute('aria-expanded')).toBe('true');
    await expect.poll(() => details.textContent()).toContain('seeded');
    expect(await details.isVisible()).toBe(true);

    // Archives: trigger a guild export, then watch its row change while the page stays loaded.
    await page.getByRole('link', { name: 'Archives' }).first().click();
    await page.selectOption('#trigger-type', 'guild');
    await page.fill('#trigger-id', guildId);
    await page.fill('#trigger-reason', 'browser walk export');
    await Promise.all([
      page.waitForURL(/done=archive-queued/),
      page.getByRole('button', { name: 'Start the export' }).click(),
    ]);
    const row = page.locator('tr[data-status-url]').first();
    const archiveId = (await row.getAttribute('data-archive'))!;
    const status = row.locator('[data-field="status_label"]');
    expect(await status.textContent()).toBe('Queued');
    await page.evaluate(() => {
      (globalThis as unknown as { walkMarker: boolean }).walkMarker = true;
    });
    // The worker's transitions, made here so each state is seen in turn.
    await startArchive(gateway.pool, archiveId, 'Starting guild archive');
    await expect.poll(() => status.textContent(), { timeout: UI_TIMEOUT_MS }).toBe('Running');
    await completeArchive(gateway.pool, archiveId, `archives/walk-${archiveId}.zip`, 2048);
    await expect.poll(() => status.textContent(), { timeout: UI_TIMEOUT_MS }).toBe('Ready');
    expect(await row.locator('[data-field="size"]').textContent()).toBe('2.0 KiB');
    await page.getByRole('link', { name: `Download archive ${archiveId}` }).waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as { walkMarker?: boolean }).walkMarker)).toBe(true);

    expect(cspViolations).toEqual([]);
    await page.close();
  });

  it('adds members by keyboard only, through the confirmation, and follows the operation to its outcome', {
    timeout: WALK_TIMEOUT_MS,
  }, async () => {
    const adder = await createAdmin(gateway.pool, [ACL.authenticate, ACL.bulkAddGuildMembers]);
    const { guildId, userIds } = await createGuildFixture(gateway.pool, 2);
    const missing = fixtureIds.next();
    const { page, cspViolations } = await watchedPage();
    await signInByKeyboard(page, impatient.url, adder.key);

    await tabTo(page, page.getByRole('link', { name: 'Bulk add members' }).first());
    await Promise.all([page.waitForURL(/\/console\/bulk\/add-members$/), page.keyboard.press('Enter')]);
    await tabTo(page, page.locator('#bulk-guild'));
    await page.keyboard.type(guildId);
    await page.keyboard.press('Tab');
    await page.keyboard.type([...userIds, missing].join(', '));
    await tabTo(page, page.getByRole('button', { name: 'Review the additions' }));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: `Add these 3 users to guild ${guildId}?` }).waitFor();
    await tabTo(page, page.locator('#bulk-reason'));
    await page.keyboard.type('browser walk');

    // The guild's row locked: the operation stays live while the result page is watched.
    const guild = await holdRowLock(gateway.pool, 'SELECT 1 FROM guilds WHERE id = $1 FOR UPDATE', [guildId]);
    try {
      await Promise.all([page.waitForURL(/\/console\/bulk\/operations\/\d+$/), page.keyboard.press('Enter')]);
      await page.getByRole('link', { name: 'Refresh' }).waitFor();
      expect(await page.locator('[data-operation-status-url]').textContent()).toMatch(/^(Queued|Running)$/);
    } finally {
      await guild.release();
    }
    // The page's script sees the operation finish and shows its outcome without a keypress.
    await page.getByText('Outcome per user').waitFor();
    for (const user of userIds) {
      await page.getByRole('row', { name: `${user} Added (or already a member)` }).waitFor();
    }
    await page.getByRole('row', { name: `${missing} Failed: Unknown user` }).waitFor();
    expect(await page.getByRole('status').first().textContent()).toBe('Finished');

    expect(cspViolations).toEqual([]);
    await page.close();
  });

  it('purges assets by id by keyboard only, through the confirmation, and shows the outcome per item', {
    timeout: WALK_TIMEOUT_MS,
  }, async () => {
    const purger = await createAdmin(gateway.pool, [ACL.authenticate, ACL.assetPurge]);
    const { guildId, emojiA, stickerId } = await createPurgeGuildFixture(gateway.pool, gateway.storage);
    const unknown = fixtureIds.next();
    const { page, cspViolations } = await watchedPage();
    await signInByKeyboard(page, impatient.url, purger.key);

    await tabTo(page, page.getByRole('link', { name: 'Asset purge' }).first());
    await Promise.all([page.waitForURL(/\/console\/assets\/purge$/), page.keyboard.press('Enter')]);
    await tabTo(page, page.locator('#purge-ids'));
    await page.keyboard.type([emojiA, stickerId, unknown].join('\n'));
    await tabTo(page, page.getByRole('button', { name: 'Review the purge' }));
    await page.keyboard.press('Enter');
    // The confirmation, in a dialog over the form, names each id that goes; nothing is sent yet.
    const confirmation = page.getByRole('dialog', { name: 'Purge these 3 assets?' });
    await confirmation.waitFor();
    expect(new URL(page.url()).pathname).toBe('/console/assets/purge');
    for (const id of [emojiA, stickerId, unknown])
      await confirmation.getByRole('listitem').filter({ hasText: id }).waitFor();
    const { rows: before } = await gateway.pool.query('SELECT 1 FROM asset_purges WHERE requested_by = $1', [
      purger.adminId,
    ]);
    expect(before).toEqual([]);
    await tabTo(page, page.locator('#purge-reason'));
    await page.keyboard.type('browser walk takedown');
    await Promise.all([page.waitForURL(/\/console\/assets\/purges\/\d+$/), page.keyboard.press('Enter')]);

    // The result page follows the worker and shows the table once the purge is done.
    await page.getByText('Outcome per item').waitFor();
    await page.getByRole('row', { name: `${emojiA} emoji ${guildId} Purged` }).waitFor();
    await page.getByRole('row', { name: `${stickerId} sticker ${guildId} Purged` }).waitFor();
    await page.getByRole('row', { name: new RegExp(`^${unknown} \\S+ — Not found$`) }).waitFor();
    await page.getByText('2 purged, 1 not found, 0 failed').waitFor();
    expect(await page.getByRole('status').first().textContent()).toBe('Finished');
    const { rows: left } = await gateway.pool.query('SELECT 1 FROM emojis WHERE id = $1', [emojiA]);
    expect(left).toEqual([]);
    expect(await seriousAxeViolations(page)).toEqual([]);

    expect(cspViolations).toEqual([]);
    await page.close();
  });

  it('retries a failed job through its confirmation and leads on to the queue dashboard', {
    timeout: WALK_TIMEOUT_MS,
  }, async () => {
    const jobs = await createAdmin(gateway.pool, [ACL.authenticate, ACL.jobsRead, ACL.jobsWrite]);
    const jobId = await failedJob(jobQueue, environment.redisUrl, 'walked-failure');
    const { page, cspViolations } = await watchedPage();
    await page.goto(`${gateway.url}/console/sign-in`);
    await page.fill('#key', jobs.key);
    await Promise.all([page.waitForURL(`${gateway.url}/console/`), page.click('button[type=submit]')]);

    await page.getByRole('link', { name: 'Failed jobs' }).first().click();
    const row = page.getByRole('row').filter({ hasText: 'walked-failure' });
    await row.getByRole('cell', { name: 'walked-failure could not run' }).waitFor();
    await row.getByRole('cell', { name: QUEUES.webhookDeliveries, exact: true }).waitFor();
    await page.getByRole('link', { name: `Retry job ${jobId} of ${QUEUES.webhookDeliveries}` }).click();
    const confirmation = page.getByRole('dialog', { name: `Retry job ${jobId}?` });
    await confirmation.getByLabel('Reason (recorded in the audit log)').fill('endpoint is back');
    await Promise.all([
      page.waitForURL(/done=job-retried/),
      confirmation.getByRole('button', { name: 'Retry the job' }).click(),
    ]);
    await page.getByRole('status').filter({ hasText: 'The job is back in its queue' }).waitFor();
    expect(await jobQueue.getJobState(jobId)).toBe('waiting');
    expect(await page.getByRole('row').filter({ hasText: 'walked-failure' }).count()).toBe(0);

    // The dashboard keeps its own sign-in: the link leads there.
    await Promise.all([
      page.waitForURL(/\/v1\/admin\/dashboard\/login$/),
      page.getByRole('link', { name: 'Queue dashboard' }).first().click(),
    ]);

    expect(cspViolations).toEqual([]);
    await page.close();
  });

  it('confirms on pages of their own when the script does not run', { timeout: WALK_TIMEOUT_MS }, async () => {
    const banned = '198.51.100.201';
    const added = await adminCall(gateway.url, {
      method: 'POST',
      path: '/v1/admin/bans/ip/add',
      key: operator.key,
      body: { ips: [banned], reason: 'no-script walk' },
    });
    expect(added.status).toBe(204);
    const page = await chromium.context.newPage();
    page.setDefaultTimeout(UI_TIMEOUT_MS);
    await page.route(/\/console\/assets\/console\.[0-9a-f]+\.js$/, (route) => route.abort());
    await page.goto(`${gateway.url}/console/sign-in`);
    await page.fill('#key', operator.key);
    await Promise.all([page.waitForURL(`${gateway.url}/console/`), page.click('button[type=submit]')]);
    await page.goto(`${gateway.url}/console/bans/ip?q=${banned}`);
    await Promise.all([
      page.waitForURL(/\/console\/bans\/ip\/remove\?value=/),
      page.getByRole('link', { name: `Remove the ban on ${banned}` }).click(),
    ]);
    expect(await page.getByRole('dialog').count()).toBe(0);
    await page.getByRole('heading', { name: `Remove the ban on ${banned}?` }).waitFor();
    await page.fill('#reason', 'no-script walk done');
    await Promise.all([
      page.waitForURL(/done=ban-removed/),
      page.getByRole('button', { name: 'Remove the ban' }).click(),
    ]);
    await page.close();
  });

  it('reports no serious or critical axe-core violation on any screen, light or dark', {
    timeout: WALK_TIMEOUT_MS,
  }, async () => {
    const everything = await createAdmin(gateway.pool, [ACL.wildcard]);
    const jobId = await failedJob(jobQueue, environment.redisUrl, 'axe-failure');
    // Archive rows in each state the list words differently: live, ready and failed.
    for (const end of ['running', 'ready', 'failed'] as const) {
      const archive = await insertArchive(gateway.pool, {
        id: fixtureIds.next(),
        subjectType: 'user',
        subjectId: fixtureIds.next(),
        requestedBy: everything.adminId,
        retentionDays: 7,
      });
      await startArchive(gateway.pool, archive.id, 'Collecting messages');
      if (end === 'ready') await completeArchive(gateway.pool, archive.id, `archives/axe-${archive.id}.zip`, 4096);
      if (end === 'failed') await failArchive(gateway.pool, archive.id, 'Storage refused the upload');
    }
    const page = await chromium.context.newPage();
    page.setDefaultTimeout(UI_TIMEOUT_MS);
    const found: string[] = [];
    const check = async (where: string) => {
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        for (const violation of await seriousAxeViolations(page)) found.push(`${where} (${colorScheme}): ${violation}`);
      }
    };
    const visit = async (path: string) => {
      await page.goto(`${gateway.url}/console${path}`);
      await check(path);
    };
    await visit('/sign-in');
    await page.fill('#key', everything.key);
    await Promise.all([page.waitForURL(`${gateway.url}/console/`), page.click('button[type=submit]')]);
    for (const path of [
      '/',
      '/keys',
      '/keys/new',
      '/bans/email',
      '/bans/ip',
      '/bans/ip?check=198.51.100.1',
      '/bans/ip/remove?value=198.51.100.1',
      '/bans/phone',
      '/audit',
      '/audit?q=seeded',
      '/archives',
      '/assets/purge',
      '/bulk/add-members',
      '/jobs/failed',
      `/jobs/failed/retry?queue=${QUEUES.webhookDeliveries}&id=${jobId}`,
    ])
      await visit(path);
    // The confirmation pages that only a form's POST reaches.
    await visit('/bans/email');
    await page.fill('#values', 'axe@example.com');
    await page.fill('#reason', 'axe');
    await page.getByRole('button', { name: 'Review the ban' }).click();
    await page.getByRole('button', { name: 'Ban', exact: true }).waitFor();
    await check('ban review');
    await visit('/assets/purge');
    await page.fill('#purge-ids', '1, 2');
    await page.getByRole('button', { name: 'Review the purge' }).click();
    await page.getByRole('button', { name: 'Purge', exact: true }).waitFor();
    await check('purge confirmation');
    await visit('/bulk/add-members');
    await page.fill('#bulk-guild', '42');
    await page.fill('#bulk-users', '1, 2');
    await page.getByRole('button', { name: 'Review the additions' }).click();
    await page.locator('#bulk-reason').waitFor();
    await check('bulk add confirmation');
    // The page that shows a new key's secret once.
    await visit('/keys/new');
    await page.fill('#name', 'axe-made');
    await page.locator('[id="acl-ban:ip:check"]').check();
    await Promise.all([
      page.waitForURL(/\/console\/keys\/created\//),
      page.getByRole('button', { name: 'Create key' }).click(),
    ]);
    await check('key created');
    expect(found).toEqual([]);
    await page.close();
  });
});
