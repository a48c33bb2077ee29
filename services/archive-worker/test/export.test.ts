import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARCHIVE_EXPORT_JOB, storageKeys, type ArchiveSubjectType } from '@switchboard/contracts';
import { findArchive, insertAdminUser, insertArchive, type Archive } from '@switchboard/db';
import { createSnowflakeGenerator } from '@switchboard/snowflake';
import {
  ARCHIVE_FIXTURE_HOSTILE_TEXT,
  ARCHIVE_FIXTURE_PNG,
  createArchiveGuildFixture,
} from '@switchboard/testkit/guilds';
import { useJobStores } from '@switchboard/testkit/jobs';
import { killMidOperation, QUICK_TAKEOVER } from '@switchboard/testkit/operations';
import { metricValue, scrapeMetrics, type MetricSample } from '@switchboard/testkit/metrics';
import { spawnService, type ServiceProcess } from '@switchboard/testkit/processes';
import { testSnowflakeWorkerId } from '@switchboard/testkit/ids';
import { unzip } from '@switchboard/testkit/unzip';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { waitFor } from '@switchboard/testkit/wait';

// The worker process as deployed (services/archive-worker/src/main.ts), handed its jobs as the
// gateway hands them: an archives row, then ARCHIVE_EXPORT_JOB carrying its id. The routes that
// trigger archives and hand out their links are the gateway's (services/gateway/test).
const environment = useTestEnvironment();
const stores = useJobStores(environment);
/** Short locks: a killed worker's archive is taken over within about two seconds. */
const WORKER_ENV = { ...QUICK_TAKEOVER, ARCHIVE_PROGRESS_INTERVAL_MS: '100', LOG_LEVEL: 'info' };
const workers: ServiceProcess[] = [];
const ids = createSnowflakeGenerator(testSnowflakeWorkerId());
let adminId: string;

const spawnWorker = async (extra: Record<string, string> = {}) => {
  workers.push(await spawnService('archive-worker', environment.processEnv({ ...WORKER_ENV, ...extra })));
};

beforeAll(async () => {
  await spawnWorker();
  adminId = (await insertAdminUser(stores.pool, { id: ids.next(), name: `archives-${ids.next()}`, acls: ['*'] })).id;
});

afterAll(async () => {
  await Promise.all(workers.map((worker) => worker.stop()));
});

const seedGuild = (messagesInBig?: number) => createArchiveGuildFixture(stores.pool, stores.storage, messagesInBig);

/** Requests an archive as the gateway does: its row, queued, then its export job. Answers its id. */
async function requestArchive(subjectType: ArchiveSubjectType, subjectId: string): Promise<string> {
  const archive = await insertArchive(stores.pool, {
    id: ids.next(),
    subjectType,
    subjectId,
    requestedBy: adminId,
    retentionDays: 365,
  });
  await stores.producer.enqueue(ARCHIVE_EXPORT_JOB, { archiveId: archive.id });
  return archive.id;
}

/** The archive's row once completed (failing on `failed`). */
function completed(archiveId: string, timeoutMs = 30_000): Promise<Archive> {
  return waitFor(async () => {
    const archive = await findArchive(stores.pool, archiveId);
    if (archive?.status === 'failed') throw new Error(`archive failed: ${archive.error}`);
    return archive?.status === 'completed' ? archive : undefined;
  }, timeoutMs);
}

/** The archive's object in the bucket, unzipped: path → bytes. */
async function filesOf(archive: Archive): Promise<Map<string, Buffer>> {
  const stream = await stores.storage.getObjectStream(archive.storageKey!);
  if (!stream) throw new Error(`no object at ${archive.storageKey}`);
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return unzip(Buffer.concat(chunks));
}

const json = (files: Map<string, Buffer>, path: string) => JSON.parse(files.get(path)!.toString('utf8'));

describe('guild archives', () => {
  it('streams every message of every text channel, guild.json and the assets into a ZIP in the bucket', async () => {
    const seeded = await seedGuild();
    const archive = await completed(await requestArchive('guild', seeded.guildId));
    expect(archive).toMatchObject({
      progressPercent: 100,
      progressStep: 'Completed',
      failedAt: null,
      error: null,
      storageKey: storageKeys.archive('guild', seeded.guildId, archive.id),
    });
    expect(Number(archive.fileSize)).toBeGreaterThan(0);
    expect((await stores.storage.headObject(archive.storageKey!))?.size).toBe(Number(archive.fileSize));

    const files = await filesOf(archive);
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
    const { rows } = await stores.pool.query<{ id: string; author_id: string; content: string }>(
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
      { author_id: seeded.ownerId, content: ARCHIVE_FIXTURE_HOSTILE_TEXT },
    ]);
    expect(files.get(`assets/guild/emojis/${seeded.emojiId}.png`)).toEqual(ARCHIVE_FIXTURE_PNG);
    expect(json(files, 'missing-assets.json')).toEqual([
      { path: `assets/guild/stickers/${seeded.stickerId}.png`, key: storageKeys.sticker(seeded.stickerId) },
    ]);
  });

  it('builds each of several archives requested at once exactly once with two workers on the queue', async () => {
    await spawnWorker();
    const seeded = await Promise.all([seedGuild(200), seedGuild(200), seedGuild(200), seedGuild(200)]);
    const requested = await Promise.all(seeded.map(({ guildId }) => requestArchive('guild', guildId)));
    const archives = await Promise.all(requested.map((archiveId) => completed(archiveId)));
    expect(archives.map((archive) => archive.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
    // A worker logs the completion after committing the row, and its output reaches this
    // process through a pipe: wait for every archive's line, then count them.
    const completions = (archiveId: string) =>
      workers
        .map((worker) => worker.stdout())
        .join('\n')
        .split('\n')
        .filter((line) => line.includes('"archive completed"') && line.includes(archiveId));
    await waitFor(async () => archives.every((archive) => completions(archive.id).length > 0), 10_000);
    for (const archive of archives) expect(completions(archive.id)).toHaveLength(1);
  });

  it('is taken over and completed when its worker is SIGKILLed mid-archive; no object is stored before', async () => {
    const seeded = await seedGuild(500);
    const archiveId = ids.next();
    const key = storageKeys.archive('guild', seeded.guildId, archiveId);
    const { done } = await killMidOperation({
      pool: stores.pool,
      // The members table held: the worker blocks while streaming guild.json into the upload.
      lock: { sql: 'LOCK TABLE members IN ACCESS EXCLUSIVE MODE', params: [] },
      start: async () => {
        await insertArchive(stores.pool, {
          id: archiveId,
          subjectType: 'guild',
          subjectId: seeded.guildId,
          requestedBy: adminId,
          retentionDays: 365,
        });
        await stores.producer.enqueue(ARCHIVE_EXPORT_JOB, { archiveId });
      },
      // The row was inserted before its job: it is there to read.
      status: async () => ({ body: (await findArchive(stores.pool, archiveId))! }),
      kill: async () => {
        await Promise.all(workers.splice(0).map((worker) => worker.stop('SIGKILL')));
        // The upload of the killed attempt was never completed: nothing is in the bucket.
        expect(await stores.storage.headObject(key)).toBeNull();
      },
      restart: () => spawnWorker(),
    });
    expect(done.body).toMatchObject({ status: 'completed', failedAt: null, storageKey: key });
    const files = await filesOf(done.body);
    expect(json(files, `channels/${seeded.big}/messages.json`)).toHaveLength(500);
  });

  it('does not rebuild a completed archive when its job is delivered again', async () => {
    const seeded = await seedGuild(10);
    const archiveId = await requestArchive('guild', seeded.guildId);
    const archive = await completed(archiveId);
    const again = await stores.deliverAgain(ARCHIVE_EXPORT_JOB, { archiveId });
    expect(again).toMatchObject({ state: 'completed', result: { archiveId, status: 'completed' } });
    expect(await findArchive(stores.pool, archiveId)).toEqual(archive);
  });

  it('fails the archive of a guild that does not exist at once, saying so, and stores nothing', async () => {
    const guildId = ids.next();
    const archiveId = await requestArchive('guild', guildId);
    const failed = await waitFor(async () => {
      const archive = await findArchive(stores.pool, archiveId);
      return archive?.status === 'failed' && archive;
    }, 20_000);
    expect(failed).toMatchObject({ error: `Guild ${guildId} not found`, progressStep: 'Failed', storageKey: null });
    expect(await stores.storage.headObject(storageKeys.archive('guild', guildId, archiveId))).toBeNull();
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
    const archive = await completed(await requestArchive('guild', seeded.guildId));
    const size = Number(archive.fileSize);
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
    const archive = await completed(await requestArchive('user', seeded.userA));
    expect(archive.storageKey).toBe(storageKeys.archive('user', seeded.userA, archive.id));
    const files = await filesOf(archive);
    expect([...files.keys()].sort()).toEqual([`channels/${seeded.big}/messages.json`, 'user.json'].sort());
    const user = json(files, 'user.json');
    expect(user.user).toMatchObject({ id: seeded.userA });
    expect(user.guild_memberships).toEqual([expect.objectContaining({ guild_id: seeded.guildId, nick: 'Aye' })]);
    // userA wrote the even-numbered half of the channel.
    expect(json(files, `channels/${seeded.big}/messages.json`)).toHaveLength(150);
  });
});

describe('retention', () => {
  it('deletes archives past their retention from the bucket and marks them expired', async () => {
    const seeded = await seedGuild(10);
    const archive = await completed(await requestArchive('guild', seeded.guildId));
    expect(await stores.storage.headObject(archive.storageKey!)).not.toBeNull();
    await stores.pool.query(`UPDATE archives SET expires_at = now() - interval '1 minute' WHERE id = $1`, [archive.id]);
    // A worker whose retention schedule ticks every second.
    await spawnWorker({ ARCHIVE_RETENTION_INTERVAL_MS: '1000' });
    await waitFor(async () => (await findArchive(stores.pool, archive.id))?.status === 'expired', 20_000);
    expect(await stores.storage.headObject(archive.storageKey!)).toBeNull();
  });
});
