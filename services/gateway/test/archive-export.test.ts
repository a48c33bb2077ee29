import { beforeAll, describe, expect, it } from 'vitest';
import { ACL } from '@switchboard/contracts';
import { createArchiveGuildFixture } from '@switchboard/testkit/guilds';
import { unzip } from '@switchboard/testkit/unzip';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { useWorker } from '@switchboard/testkit/use-worker';
import { waitFor } from '@switchboard/testkit/wait';
import { adminCall, createAdmin, type AdminFixture } from './admin-helpers.ts';
import { useGateway } from './helpers.ts';

// What an archive contains, how it is built and when it is removed is the archive worker's,
// tested beside it (services/archive-worker/test); here, the routes around a real worker.
const environment = useTestEnvironment();
const gateway = useGateway(environment, { RATE_LIMITS_ENABLED: 'false' });
useWorker(environment, 'archive-worker', { ARCHIVE_PROGRESS_INTERVAL_MS: '100' });
let admin: AdminFixture;

beforeAll(async () => {
  admin = await createAdmin(gateway.pool, [
    ACL.authenticate,
    ACL.archiveTriggerGuild,
    ACL.archiveTriggerUser,
    ACL.archiveViewAll,
  ]);
});

const seedGuild = (messagesInBig?: number) => createArchiveGuildFixture(gateway.pool, gateway.storage, messagesInBig);

const trigger = (type: 'user' | 'guild', id: string) =>
  adminCall(gateway.url, {
    method: 'POST',
    path: `/v1/admin/archives/${type}`,
    key: admin.key,
    body: type === 'guild' ? { guild_id: id } : { user_id: id },
  });
const archiveOf = async (type: string, subjectId: string, archiveId: string) =>
  (
    await adminCall(gateway.url, {
      method: 'GET',
      path: `/v1/admin/archives/${type}/${subjectId}/${archiveId}`,
      key: admin.key,
    })
  ).body.archive;

async function completed(type: string, subjectId: string, archiveId: string, timeoutMs = 30_000) {
  return waitFor(async () => {
    const archive = await archiveOf(type, subjectId, archiveId);
    if (archive?.status === 'failed') throw new Error(`archive failed: ${archive.error_message}`);
    return archive?.status === 'completed' ? archive : undefined;
  }, timeoutMs);
}

/** Downloads the archive through its presigned link and unzips it: path → bytes. */
async function download(type: string, subjectId: string, archiveId: string): Promise<Map<string, Buffer>> {
  const link = await adminCall(gateway.url, {
    method: 'GET',
    path: `/v1/admin/archives/${type}/${subjectId}/${archiveId}/download`,
    key: admin.key,
  });
  expect(link.status).toBe(200);
  const response = await fetch(link.body.downloadUrl);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-disposition')).toMatch(/^attachment;/);
  return unzip(Buffer.from(await response.arrayBuffer()));
}

const json = (files: Map<string, Buffer>, path: string) => JSON.parse(files.get(path)!.toString('utf8'));

describe('an archive built by the worker, through the routes', () => {
  it('guild: the trigger answers it queued, the status route follows it to completed, and its link downloads the ZIP as an attachment', async () => {
    const seeded = await seedGuild(10);
    const triggered = await trigger('guild', seeded.guildId);
    expect(triggered.status).toBe(200);
    expect(triggered.body).toMatchObject({ status: 'queued', progress_step: 'Queued', progress_percent: 0 });
    const archive = await completed('guild', seeded.guildId, triggered.body.archive_id);
    expect(archive).toMatchObject({
      progress_percent: 100,
      progress_step: 'Completed',
      failed_at: null,
      error_message: null,
    });
    expect(Number(archive.file_size)).toBeGreaterThan(0);
    const files = await download('guild', seeded.guildId, archive.archive_id);
    expect(json(files, 'guild.json').guild).toMatchObject({ id: seeded.guildId });
    expect(json(files, `channels/${seeded.big}/messages.json`)).toHaveLength(10);
  });

  it("user: the same for a user's archive", async () => {
    const seeded = await seedGuild(10);
    const triggered = await trigger('user', seeded.userA);
    expect(triggered.status).toBe(200);
    const archive = await completed('user', seeded.userA, triggered.body.archive_id);
    const files = await download('user', seeded.userA, archive.archive_id);
    expect(json(files, 'user.json').user).toMatchObject({ id: seeded.userA });
  });

  it('once past its retention, the route calls it expired at once and its download is HARVEST_EXPIRED', async () => {
    const seeded = await seedGuild(10);
    const triggered = await trigger('guild', seeded.guildId);
    const archive = await completed('guild', seeded.guildId, triggered.body.archive_id);
    await gateway.pool.query(`UPDATE archives SET expires_at = now() - interval '1 minute' WHERE id = $1`, [
      archive.archive_id,
    ]);
    // Expired by its date, before the worker's retention sweep marks the row.
    expect((await archiveOf('guild', seeded.guildId, archive.archive_id)).status).toBe('expired');
    const expired = await adminCall(gateway.url, {
      method: 'GET',
      path: `/v1/admin/archives/guild/${seeded.guildId}/${archive.archive_id}/download`,
      key: admin.key,
    });
    expect(expired.status).toBe(400);
    expect(expired.body.code).toBe('HARVEST_EXPIRED');
  });
});
