import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACL, storageKeys } from '@switchboard/contracts';
import {
  ARCHIVE_FIXTURE_HOSTILE_TEXT,
  ARCHIVE_FIXTURE_PNG,
  createArchiveGuildFixture,
  metricValue,
  QUICK_TAKEOVER,
  scrapeMetrics,
  spawnService,
  unzip,
  useTestEnvironment,
  waitFor,
  type MetricSample,
  type ServiceProcess,
} from '@switchboard/testkit';
import { adminCall, createAdmin, type AdminFixture } from './admin-helpers.ts';
import { useGateway } from './helpers.ts';

const environment = useTestEnvironment();
const gateway = useGateway(environment, { RATE_LIMITS_ENABLED: 'false' });
/** Short locks: a killed worker's archive is taken over within about two seconds. */
const WORKER_ENV = { ...QUICK_TAKEOVER, ARCHIVE_PROGRESS_INTERVAL_MS: '100', LOG_LEVEL: 'info' };
const workers: ServiceProcess[] = [];
let admin: AdminFixture;

beforeAll(async () => {
  workers.push(await spawnService('archive-worker', environment.processEnv(WORKER_ENV)));
  admin = await createAdmin(gateway.pool, [
    ACL.authenticate,
    ACL.archiveTriggerGuild,
    ACL.archiveTriggerUser,
    ACL.archiveViewAll,
  ]);
});

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop()));
});

const PNG = ARCHIVE_FIXTURE_PNG;
const HOSTILE = ARCHIVE_FIXTURE_HOSTILE_TEXT;
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

describe('guild archives', () => {
  it('streams every message of every text channel, guild.json and the assets into a ZIP, and hands it out by a presigned link', async () => {
    const seeded = await seedGuild();
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
    expect([...files.keys()].sort()).toEqual(
      [
        'guild.json',
        `channels/${seeded.big}/messages.json`,
        `channels/${seeded.small}/messages.json`,
        `assets/guild/emojis/${seeded.emojiId}.png`,
        'missing-assets.json',
      ].sort(),
    );
    const guild = json(files, 'guild.json');
    expect(guild.guild).toMatchObject({ id: seeded.guildId, name: 'Archived guild', owner_id: seeded.ownerId });
    expect(guild.members.map((member: { user_id: string }) => member.user_id).sort()).toEqual(
      [seeded.ownerId, seeded.userA, seeded.userB].sort(),
    );
    expect(guild.channels.map((channel: { id: string }) => channel.id)).toEqual([
      seeded.big,
      seeded.small,
      seeded.voice,
    ]);
    expect(guild.emojis).toEqual([{ id: seeded.emojiId, name: 'wave', animated: false, creator_id: seeded.ownerId }]);

    // Every message, compared with the database row by row.
    const { rows } = await gateway.pool.query<{ id: string; author_id: string; content: string }>(
      'SELECT id::text, author_id::text, content FROM messages WHERE channel_id = $1 ORDER BY id',
      [seeded.big],
    );
    const exported = json(files, `channels/${seeded.big}/messages.json`) as Array<{
      id: string;
      author_id: string;
      content: string;
      timestamp: string;
    }>;
    expect(exported).toHaveLength(12_000);
    expect(exported.map(({ id, author_id, content }) => ({ id, author_id, content }))).toEqual(rows);
    expect(Number.isNaN(Date.parse(exported[0]!.timestamp))).toBe(false);
    expect(json(files, `channels/${seeded.small}/messages.json`)).toMatchObject([
      { author_id: seeded.ownerId, content: HOSTILE },
    ]);
    expect(files.get(`assets/guild/emojis/${seeded.emojiId}.png`)).toEqual(PNG);
    expect(json(files, 'missing-assets.json')).toEqual([
      { path: `assets/guild/stickers/${seeded.stickerId}.png`, key: storageKeys.sticker(seeded.stickerId) },
    ]);
  });

  it('builds each of several archives requested at once exactly once with two workers on the queue', async () => {
    workers.push(await spawnService('archive-worker', environment.processEnv(WORKER_ENV)));
    const seeded = await Promise.all([seedGuild(200), seedGuild(200), seedGuild(200), seedGuild(200)]);
    const triggered = await Promise.all(seeded.map(({ guildId }) => trigger('guild', guildId)));
    const archives = await Promise.all(
      triggered.map((answer, i) => completed('guild', seeded[i]!.guildId, answer.body.archive_id)),
    );
    expect(archives.map((archive) => archive.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
    // A worker logs the completion after committing the row, and its output reaches this
    // process through a pipe: wait for every archive's line, then count them.
    const completions = (archiveId: string) =>
      workers
        .map((worker) => worker.stdout())
        .join('\n')
        .split('\n')
        .filter((line) => line.includes('"archive completed"') && line.includes(archiveId));
    await waitFor(async () => archives.every((archive) => completions(archive.archive_id).length > 0), 10_000);
    for (const archive of archives) expect(completions(archive.archive_id)).toHaveLength(1);
  });

  it('is taken over and completed when its worker is SIGKILLed mid-archive; no object is served before', async () => {
    const seeded = await seedGuild(500);
    // Hold the members table: the worker blocks while streaming guild.json into the upload.
    const blocker = await gateway.pool.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE members IN ACCESS EXCLUSIVE MODE');
      const triggered = await trigger('guild', seeded.guildId);
      const archiveId = triggered.body.archive_id as string;
      await waitFor(async () => (await archiveOf('guild', seeded.guildId, archiveId))?.status === 'running', 10_000);
      await Promise.all(workers.splice(0).map((worker) => worker.stop('SIGKILL')));
      const key = storageKeys.archive('guild', seeded.guildId, archiveId);
      expect(await gateway.storage.headObject(key)).toBeNull();
      const notReady = await adminCall(gateway.url, {
        method: 'GET',
        path: `/v1/admin/archives/guild/${seeded.guildId}/${archiveId}/download`,
        key: admin.key,
      });
      expect(notReady.body.code).toBe('HARVEST_NOT_READY');

      await blocker.query('ROLLBACK');
      workers.push(await spawnService('archive-worker', environment.processEnv(WORKER_ENV)));
      const archive = await completed('guild', seeded.guildId, archiveId);
      expect(archive.failed_at).toBeNull();
      const files = await download('guild', seeded.guildId, archiveId);
      expect(json(files, `channels/${seeded.big}/messages.json`)).toHaveLength(500);
    } finally {
      blocker.release();
    }
  });
});

describe('archive metrics', () => {
  /** Every live worker's samples (a worker an earlier test killed has none). */
  async function scrapeWorkers(): Promise<MetricSample[][]> {
    const scrapes = await Promise.all(
      workers.map((worker) =>
        scrapeMetrics(`http://127.0.0.1:${String(worker.ready['healthPort'])}/metrics`).then(
          (scrape) => scrape.samples,
          () => null,
        ),
      ),
    );
    return scrapes.filter((samples) => samples !== null);
  }
  const total = (scrapes: MetricSample[][], name: string, labels: Record<string, string>) =>
    scrapes.reduce((sum, samples) => sum + (metricValue(samples, name, labels) ?? 0), 0);

  it("counts the bytes of every archive uploaded, and the export job, on the workers' /metrics", async () => {
    const bytesBefore = total(await scrapeWorkers(), 'archive_bytes_written_total', { subject_type: 'guild' });
    const seeded = await seedGuild(300);
    const triggered = await trigger('guild', seeded.guildId);
    const archive = await completed('guild', seeded.guildId, triggered.body.archive_id);
    const size = Number(archive.file_size);
    expect(size).toBeGreaterThan(0);
    // The counter moves as the upload ends, the row a moment later: it is there once the row is.
    const scrapes = await scrapeWorkers();
    expect(total(scrapes, 'archive_bytes_written_total', { subject_type: 'guild' }) - bytesBefore).toBe(size);
    // The job completes just after its row does.
    const job = { queue: 'archive-exports', job_name: 'archive-export' };
    const later = await waitFor(async () => {
      const again = await scrapeWorkers();
      return total(again, 'worker_jobs_completed_total', job) >= 1 && again;
    });
    expect(total(later, 'worker_job_duration_seconds_count', { ...job, outcome: 'completed' })).toBeGreaterThanOrEqual(
      1,
    );
  });
});

describe('user archives', () => {
  it('exports the user, their memberships and every message they wrote, per channel', async () => {
    const seeded = await seedGuild(300);
    const triggered = await trigger('user', seeded.userA);
    expect(triggered.status).toBe(200);
    const archive = await completed('user', seeded.userA, triggered.body.archive_id);
    const files = await download('user', seeded.userA, archive.archive_id);
    expect([...files.keys()].sort()).toEqual([`channels/${seeded.big}/messages.json`, 'user.json'].sort());
    const user = json(files, 'user.json');
    expect(user.user).toMatchObject({ id: seeded.userA });
    expect(user.guild_memberships).toEqual([expect.objectContaining({ guild_id: seeded.guildId, nick: 'Aye' })]);
    // userA wrote the even-numbered half of the channel.
    expect(json(files, `channels/${seeded.big}/messages.json`)).toHaveLength(150);
  });
});

describe('retention', () => {
  it('deletes archives past their retention and marks them expired; their download is HARVEST_EXPIRED', async () => {
    const seeded = await seedGuild(10);
    const triggered = await trigger('guild', seeded.guildId);
    const archive = await completed('guild', seeded.guildId, triggered.body.archive_id);
    const key = storageKeys.archive('guild', seeded.guildId, archive.archive_id);
    expect(await gateway.storage.headObject(key)).not.toBeNull();
    await gateway.pool.query(`UPDATE archives SET expires_at = now() - interval '1 minute' WHERE id = $1`, [
      archive.archive_id,
    ]);
    // A worker whose retention schedule ticks every second.
    workers.push(
      await spawnService(
        'archive-worker',
        environment.processEnv({ ...WORKER_ENV, ARCHIVE_RETENTION_INTERVAL_MS: '1000' }),
      ),
    );
    // The API calls it expired at once (its date passed); the sweep then marks the row and deletes the object.
    expect((await archiveOf('guild', seeded.guildId, archive.archive_id)).status).toBe('expired');
    const rowStatus = async () =>
      (await gateway.pool.query('SELECT status FROM archives WHERE id = $1', [archive.archive_id])).rows[0]?.status;
    await waitFor(async () => (await rowStatus()) === 'expired', 20_000);
    expect(await gateway.storage.headObject(key)).toBeNull();
    const expired = await adminCall(gateway.url, {
      method: 'GET',
      path: `/v1/admin/archives/guild/${seeded.guildId}/${archive.archive_id}/download`,
      key: admin.key,
    });
    expect(expired.status).toBe(400);
    expect(expired.body.code).toBe('HARVEST_EXPIRED');
  });
});
