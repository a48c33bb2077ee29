import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACL, ARCHIVE_EXPORT_JOB, type ArchiveSubjectType } from '@switchboard/contracts';
import {
  completeArchive,
  failArchive,
  findArchive,
  insertArchive,
  insertGuild,
  insertUsers,
  startArchive,
  type Archive,
} from '@switchboard/db';
import { bullQueue, jobIdFor, QueueUnavailableError, type Producer } from '@switchboard/queue';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { waitFor } from '@switchboard/testkit/wait';
import { archiveFilename, presentArchive } from '../src/routes/admin/archives/presenter.ts';
import { adminCall, createAdmin, fixtureIds, type AdminFixture } from './admin-helpers.ts';
import { useGateway, type RunningGateway } from './helpers.ts';

const environment = useTestEnvironment();
const gateway = useGateway(environment, { RATE_LIMITS_ENABLED: 'false' });
/** Links that live one second, to see the store refuse one once it expired. */
const shortLinks = useGateway(environment, { RATE_LIMITS_ENABLED: 'false', ARCHIVE_LINK_TTL_SECONDS: '1' });
/** Every enqueue fails as it does when Redis is down. */
const unavailable: Producer = {
  enqueue: async (contract) => {
    throw new QueueUnavailableError(contract.queue);
  },
  enqueueAndWait: async (contract) => {
    throw new QueueUnavailableError(contract.queue);
  },
  failedJobs: async (queues) => {
    throw new QueueUnavailableError(queues[0]!);
  },
  jobCounts: async (queue) => {
    throw new QueueUnavailableError(queue);
  },
  retryFailedJob: async (queue) => {
    throw new QueueUnavailableError(queue);
  },
  bullQueue: (queue) => {
    throw new QueueUnavailableError(queue);
  },
  close: async () => {},
};
const queueDown = useGateway(environment, { RATE_LIMITS_ENABLED: 'false' }, { producer: unavailable });

const DAY_MS = 86_400_000;
const admins = {} as Record<'full' | 'viewAll' | 'userOnly' | 'guildOnly' | 'narrowKey', AdminFixture>;
let exportsQueue: Queue;

beforeAll(async () => {
  const { pool } = gateway;
  admins.full = await createAdmin(pool, [
    ACL.authenticate,
    ACL.archiveTriggerUser,
    ACL.archiveTriggerGuild,
    ACL.archiveViewAll,
  ]);
  admins.viewAll = await createAdmin(pool, [ACL.authenticate, ACL.archiveViewAll]);
  admins.userOnly = await createAdmin(pool, [ACL.authenticate, ACL.archiveTriggerUser]);
  admins.guildOnly = await createAdmin(pool, [ACL.authenticate, ACL.archiveTriggerGuild]);
  // The owner may see everything, the key only user archives: the key decides.
  admins.narrowKey = await createAdmin(pool, ['*'], { keyAcls: [ACL.authenticate, ACL.archiveTriggerUser] });
  exportsQueue = bullQueue(ARCHIVE_EXPORT_JOB.queue, gateway.redis, gateway.config.REDIS_PREFIX);
});

afterAll(async () => {
  await exportsQueue?.close();
});

async function newUser(): Promise<string> {
  const id = fixtureIds.next();
  await insertUsers(gateway.pool, [{ id, username: `u${id.slice(-8)}` }]);
  return id;
}

async function newGuild(): Promise<string> {
  const id = fixtureIds.next();
  await insertGuild(gateway.pool, { id, name: 'archived', ownerId: await newUser() });
  return id;
}

/** A queued archive row, written directly (the subject need not exist: records outlive subjects). */
function seedArchive(
  requestedBy: string,
  subjectType: ArchiveSubjectType = 'user',
  subjectId = fixtureIds.next(),
): Promise<Archive> {
  return insertArchive(gateway.pool, {
    id: fixtureIds.next(),
    subjectType,
    subjectId,
    requestedBy,
    retentionDays: 365,
  });
}

/** A completed archive whose ZIP is in the bucket. */
async function completedArchive(requestedBy: string, bytes: Buffer): Promise<Archive> {
  const archive = await seedArchive(requestedBy, 'guild');
  const key = `archives/guilds/${archive.subjectId}/${archive.id}/guild-archive.zip`;
  await gateway.storage.upload(key, bytes, { contentType: 'application/zip' });
  await startArchive(gateway.pool, archive.id, 'Starting guild archive');
  await completeArchive(gateway.pool, archive.id, key, bytes.length);
  return (await findArchive(gateway.pool, archive.id))!;
}

/** The export job of an archive (its id is derived from the archive id, docs/decisions.md#job-ids). */
const exportJob = (archiveId: string) => exportsQueue.getJob(jobIdFor(ARCHIVE_EXPORT_JOB, { archiveId })!);

const setRow = (id: string, assignments: string) =>
  gateway.pool.query(`UPDATE archives SET ${assignments} WHERE id = $1`, [id]);

const post = (
  path: string,
  admin: AdminFixture,
  body: unknown,
  via: RunningGateway = gateway,
  headers: Record<string, string> = {},
) => adminCall(via.url, { method: 'POST', path: `/v1/admin/archives/${path}`, key: admin.key, body, headers });
const get = (path: string, admin: AdminFixture = admins.full, via: RunningGateway = gateway) =>
  adminCall(via.url, { method: 'GET', path: `/v1/admin/archives/${path}`, key: admin.key });
const pathOf = (archive: Pick<Archive, 'id' | 'subjectType' | 'subjectId'>) =>
  `${archive.subjectType}/${archive.subjectId}/${archive.id}`;
const ids = (answer: { body: { archives: Array<{ archive_id: string }> } }) =>
  answer.body.archives.map((archive) => archive.archive_id);

describe('POST /admin/archives/user and /guild', () => {
  it('creates a queued archive (docs/decisions.md#fluxer-archive-record plus status), enqueues its export and audits it', async () => {
    const userId = await newUser();
    const answer = await post('user', admins.full, { user_id: userId }, gateway, {
      'X-Audit-Log-Reason': 'legal hold',
    });
    expect(answer.status).toBe(200);
    const record = answer.body;
    expect(record).toEqual({
      archive_id: expect.stringMatching(/^[0-9]+$/),
      subject_type: 'user',
      subject_id: userId,
      requested_by: admins.full.adminId,
      status: 'queued',
      requested_at: expect.stringMatching(/Z$/),
      started_at: null,
      completed_at: null,
      failed_at: null,
      file_size: null,
      progress_percent: 0,
      progress_step: 'Queued',
      error_message: null,
      download_url_expires_at: null,
      expires_at: expect.stringMatching(/Z$/),
    });
    const retention = Date.parse(record.expires_at) - Date.parse(record.requested_at);
    expect(Math.abs(retention - 365 * DAY_MS)).toBeLessThanOrEqual(3_600_000);

    const job = await exportJob(record.archive_id);
    expect(job?.name).toBe(ARCHIVE_EXPORT_JOB.name);
    // As the worker reads it: the contract strips what the producer adds (the request id, the trace).
    expect(ARCHIVE_EXPORT_JOB.payload.parse(job?.data)).toEqual({ archiveId: record.archive_id });

    const { rows } = await gateway.pool.query(
      `SELECT * FROM audit_logs WHERE target_type = 'archive' AND target_id = $1`,
      [record.archive_id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      admin_user_id: admins.full.adminId,
      action: 'trigger_user_archive',
      audit_log_reason: 'legal hold',
      metadata: { subject_type: 'user', subject_id: userId },
    });
  });

  it('archives a guild the same way', async () => {
    const guildId = await newGuild();
    const answer = await post('guild', admins.full, { guild_id: guildId });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      subject_type: 'guild',
      subject_id: guildId,
      status: 'queued',
      progress_step: 'Queued',
    });
    expect(ARCHIVE_EXPORT_JOB.payload.parse((await exportJob(answer.body.archive_id))?.data)).toEqual({
      archiveId: answer.body.archive_id,
    });
    const { rows } = await gateway.pool.query(`SELECT action, metadata FROM audit_logs WHERE target_id = $1`, [
      answer.body.archive_id,
    ]);
    expect(rows).toEqual([
      { action: 'trigger_guild_archive', metadata: { subject_type: 'guild', subject_id: guildId } },
    ]);
  });

  it('answers 404 for a subject that does not exist and 400 for a malformed body', async () => {
    const user = await post('user', admins.full, { user_id: fixtureIds.next() });
    expect(user.status).toBe(404);
    expect(user.body.code).toBe('UNKNOWN_USER');
    const guild = await post('guild', admins.full, { guild_id: fixtureIds.next() });
    expect(guild.status).toBe(404);
    expect(guild.body.code).toBe('UNKNOWN_GUILD');
    for (const body of [{}, { user_id: 'abc' }, { user_id: '' }]) {
      const answer = await post('user', admins.full, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.errors[0].path).toBe('user_id');
    }
  });

  it('marks the archive failed and answers 503 with Retry-After when the queue is unreachable', async () => {
    const userId = await newUser();
    const answer = await post('user', admins.full, { user_id: userId }, queueDown);
    expect(answer.status).toBe(503);
    expect(answer.body.code).toBe('SERVICE_UNAVAILABLE');
    expect(answer.headers.get('retry-after')).toBe('1');
    const { rows } = await gateway.pool.query(`SELECT id::text FROM archives WHERE subject_id = $1`, [userId]);
    expect(rows).toHaveLength(1);
    expect(await findArchive(gateway.pool, rows[0].id)).toMatchObject({ status: 'failed', progressStep: 'Failed' });
  });
});

describe('POST /admin/archives/list', () => {
  /** A requester with one user and one guild archive, to list by `requested_by`. */
  async function requesterWithBoth() {
    const requester = await createAdmin(gateway.pool, [ACL.authenticate]);
    const user = await seedArchive(requester.adminId, 'user');
    const guild = await seedArchive(requester.adminId, 'guild');
    return { requestedBy: requester.adminId, user, guild };
  }

  it('shows every type to archive:view_all, newest first', async () => {
    const { requestedBy, user, guild } = await requesterWithBoth();
    for (const admin of [admins.viewAll, admins.full]) {
      const answer = await post('list', admin, { requested_by: requestedBy });
      expect(answer.status).toBe(200);
      expect(ids(answer)).toEqual([guild.id, user.id]);
      expect(answer.body.archives[0]).toEqual(presentArchive(guild));
      expect(answer.body.next_cursor).toBeNull();
    }
    expect(ids(await post('list', admins.viewAll, { subject_type: 'user', requested_by: requestedBy }))).toEqual([
      user.id,
    ]);
  });

  it('shows a trigger-only admin its type only; requested_by never widens it', async () => {
    const { requestedBy, user, guild } = await requesterWithBoth();
    expect(ids(await post('list', admins.userOnly, { subject_type: 'user', requested_by: requestedBy }))).toEqual([
      user.id,
    ]);
    expect(ids(await post('list', admins.guildOnly, { subject_type: 'guild', requested_by: requestedBy }))).toEqual([
      guild.id,
    ]);
    expect(ids(await post('list', admins.narrowKey, { subject_type: 'user', requested_by: requestedBy }))).toEqual([
      user.id,
    ]);
  });

  it('refuses a type the caller may not see with 403 MISSING_ACL naming the ACL it needs', async () => {
    const cases: Array<[AdminFixture, unknown, string]> = [
      [admins.userOnly, {}, ACL.archiveViewAll],
      [admins.userOnly, { subject_type: 'all', requested_by: admins.userOnly.adminId }, ACL.archiveViewAll],
      [admins.userOnly, { subject_type: 'guild' }, ACL.archiveTriggerGuild],
      [admins.guildOnly, { subject_type: 'user' }, ACL.archiveTriggerUser],
      [admins.guildOnly, { subject_id: admins.guildOnly.adminId }, ACL.archiveViewAll],
      [admins.narrowKey, { subject_type: 'all' }, ACL.archiveViewAll],
      [admins.narrowKey, { subject_type: 'guild' }, ACL.archiveTriggerGuild],
    ];
    for (const [admin, body, acl] of cases) {
      const answer = await post('list', admin, body);
      expect(answer.status, JSON.stringify(body)).toBe(403);
      expect(answer.body).toMatchObject({ code: 'MISSING_ACL', acl });
    }
  });

  it('filters by subject; subject_id with subject_type all is a 400 on subject_id', async () => {
    const requester = await createAdmin(gateway.pool, [ACL.authenticate]);
    const subjectId = fixtureIds.next();
    const first = await seedArchive(requester.adminId, 'user', subjectId);
    await seedArchive(requester.adminId, 'user');
    const second = await seedArchive(admins.full.adminId, 'user', subjectId);
    expect(ids(await post('list', admins.userOnly, { subject_type: 'user', subject_id: subjectId }))).toEqual([
      second.id,
      first.id,
    ]);
    expect(ids(await post('list', admins.viewAll, { subject_type: 'guild', subject_id: subjectId }))).toEqual([]);
    const all = await post('list', admins.viewAll, { subject_type: 'all', subject_id: subjectId });
    expect(all.status).toBe(400);
    expect(all.body).toMatchObject({ code: 'INVALID_FORM_BODY', errors: [{ path: 'subject_id' }] });
  });

  it('pages with next_cursor and before', async () => {
    const requester = await createAdmin(gateway.pool, [ACL.authenticate]);
    const seeded: Archive[] = [];
    for (let i = 0; i < 5; i++) seeded.push(await seedArchive(requester.adminId, i % 2 === 0 ? 'user' : 'guild'));
    const newestFirst = seeded.map((archive) => archive.id).reverse();
    const page = (before?: string) =>
      post('list', admins.viewAll, { requested_by: requester.adminId, limit: 2, before });
    const first = await page();
    expect(ids(first)).toEqual(newestFirst.slice(0, 2));
    expect(first.body.next_cursor).toBe(newestFirst[1]);
    const second = await page(first.body.next_cursor);
    expect(ids(second)).toEqual(newestFirst.slice(2, 4));
    const third = await page(second.body.next_cursor);
    expect(ids(third)).toEqual(newestFirst.slice(4));
    expect(third.body.next_cursor).toBeNull();
  });

  it('leaves expired archives out unless include_expired is true', async () => {
    const requester = await createAdmin(gateway.pool, [ACL.authenticate]);
    const live = await seedArchive(requester.adminId);
    const pastDate = await seedArchive(requester.adminId);
    const marked = await seedArchive(requester.adminId);
    await setRow(pastDate.id, `expires_at = now() - interval '1 minute'`);
    await setRow(marked.id, `status = 'expired'`);
    const body = { subject_type: 'user', requested_by: requester.adminId };
    expect(ids(await post('list', admins.userOnly, body))).toEqual([live.id]);
    const all = await post('list', admins.userOnly, { ...body, include_expired: true });
    expect(ids(all)).toEqual([marked.id, pastDate.id, live.id]);
    expect(all.body.archives[0].status).toBe('expired');
  });

  it('validates limit (1..200, a fraction rounded down), the ids and the type', async () => {
    const requester = await createAdmin(gateway.pool, [ACL.authenticate]);
    await seedArchive(requester.adminId);
    const newer = await seedArchive(requester.adminId);
    const fractional = await post('list', admins.viewAll, { requested_by: requester.adminId, limit: 1.5 });
    expect(ids(fractional)).toEqual([newer.id]);
    expect(fractional.body.next_cursor).toBe(newer.id);
    const bad: Array<[unknown, string]> = [
      [{ limit: 0 }, 'limit'],
      [{ limit: 201 }, 'limit'],
      [{ limit: '10' }, 'limit'],
      [{ subject_type: 'channel' }, 'subject_type'],
      [{ requested_by: 'me' }, 'requested_by'],
      [{ before: 'x' }, 'before'],
      [{ include_expired: 'yes' }, 'include_expired'],
    ];
    for (const [body, path] of bad) {
      const answer = await post('list', admins.viewAll, body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect(answer.body.errors[0].path).toBe(path);
    }
  });
});

describe('GET /admin/archives/{subjectType}/{subjectId}/{archiveId}', () => {
  it('answers {archive} for its own subject, {archive: null} when missing or for another subject', async () => {
    const archive = await seedArchive(admins.full.adminId, 'user');
    const found = await get(pathOf(archive), admins.userOnly);
    expect(found.status).toBe(200);
    expect(found.body).toEqual({ archive: presentArchive(archive) });
    for (const path of [
      pathOf({ ...archive, id: fixtureIds.next() }),
      pathOf({ ...archive, subjectId: fixtureIds.next() }),
      `guild/${archive.subjectId}/${archive.id}`,
    ]) {
      const missing = await get(path);
      expect(missing.status, path).toBe(200);
      expect(missing.body, path).toEqual({ archive: null });
    }
  });

  it('checks the path (400) and the type against the caller ACLs (403)', async () => {
    const archive = await seedArchive(admins.full.adminId, 'user');
    for (const path of [`channel/1/${archive.id}`, `user/abc/${archive.id}`, 'user/1/-1']) {
      const answer = await get(path);
      expect(answer.status, path).toBe(400);
      expect(answer.body.code).toBe('INVALID_FORM_BODY');
    }
    const refused = await get(pathOf(archive), admins.guildOnly);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'MISSING_ACL', acl: ACL.archiveTriggerUser });
    expect((await get(`guild/1/${archive.id}`, admins.userOnly)).body).toMatchObject({
      code: 'MISSING_ACL',
      acl: ACL.archiveTriggerGuild,
    });
    expect((await get(pathOf(archive), admins.viewAll)).body.archive.archive_id).toBe(archive.id);
  });
});

describe('GET …/download', () => {
  const download = (archive: Pick<Archive, 'id' | 'subjectType' | 'subjectId'>, via: RunningGateway = gateway) =>
    get(`${pathOf(archive)}/download`, admins.full, via);

  it('refuses in order: 404 UNKNOWN_HARVEST, HARVEST_NOT_READY, HARVEST_FAILED, HARVEST_EXPIRED', async () => {
    const expect400 = async (archive: Archive, code: string) => {
      const answer = await download(archive);
      expect(answer.status, `${archive.id} ${code}`).toBe(400);
      expect(answer.body.code).toBe(code);
    };
    const missing = await download({ id: fixtureIds.next(), subjectType: 'user', subjectId: fixtureIds.next() });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBe('UNKNOWN_HARVEST');
    const completed = await completedArchive(admins.full.adminId, Buffer.from('zip'));
    expect((await download({ ...completed, subjectId: fixtureIds.next() })).body.code).toBe('UNKNOWN_HARVEST');

    const queued = await seedArchive(admins.full.adminId);
    const running = await seedArchive(admins.full.adminId);
    await startArchive(gateway.pool, running.id, 'Starting archive');
    // Not ready comes before expired.
    await setRow(running.id, `expires_at = now() - interval '1 minute'`);
    await expect400(queued, 'HARVEST_NOT_READY');
    await expect400(running, 'HARVEST_NOT_READY');

    const failed = await seedArchive(admins.full.adminId);
    await failArchive(gateway.pool, failed.id, 'boom');
    await expect400(failed, 'HARVEST_FAILED');
    // Failed comes before expired.
    await setRow(failed.id, `expires_at = now() - interval '1 minute'`);
    await expect400(failed, 'HARVEST_FAILED');

    const pastDate = await completedArchive(admins.full.adminId, Buffer.from('zip'));
    await setRow(pastDate.id, `expires_at = now() - interval '1 minute'`);
    await expect400(pastDate, 'HARVEST_EXPIRED');
    const marked = await completedArchive(admins.full.adminId, Buffer.from('zip'));
    await setRow(marked.id, `status = 'expired'`);
    await expect400(marked, 'HARVEST_EXPIRED');
  });

  it('answers a fresh presigned link ({downloadUrl, expiresAt}) that downloads the ZIP as an attachment', async () => {
    const bytes = Buffer.from(`PK\u0003\u0004 archive ${fixtureIds.next()}`);
    const archive = await completedArchive(admins.full.adminId, bytes);
    const answer = await download(archive);
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(['downloadUrl', 'expiresAt']);
    const url = new URL(answer.body.downloadUrl);
    expect(url.searchParams.get('X-Amz-Expires')).toBe('900');
    const signedAt = url.searchParams
      .get('X-Amz-Date')!
      .replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z');
    expect(Date.parse(answer.body.expiresAt) - Date.parse(signedAt)).toBe(900_000);

    const response = await fetch(url);
    expect(response.status).toBe(200);
    expect(Buffer.from(await response.arrayBuffer())).toEqual(bytes);
    const disposition = response.headers.get('content-disposition') ?? '';
    expect(disposition).toBe(
      `attachment; filename="${archiveFilename(archive)}"; filename*=UTF-8''${archiveFilename(archive)}`,
    );
    // Minted per request, never stored.
    expect(await findArchive(gateway.pool, archive.id)).toEqual(archive);
  });

  it('audits every link it hands out, with the key that asked', async () => {
    const archive = await completedArchive(admins.full.adminId, Buffer.from('audited'));
    for (let i = 0; i < 2; i += 1) expect((await download(archive)).status).toBe(200);
    const { rows } = await gateway.pool.query(
      `SELECT admin_user_id::text, api_key_id::text, target_type, action, metadata FROM audit_logs WHERE target_id = $1 AND action = 'download_archive'`,
      [archive.id],
    );
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      admin_user_id: admins.full.adminId,
      api_key_id: admins.full.keyId,
      target_type: 'archive',
      metadata: {
        subject_type: archive.subjectType,
        subject_id: archive.subjectId,
        link_expires_at: expect.any(String),
      },
    });
    // A refused download hands out nothing and records nothing.
    const pending = await seedArchive(admins.full.adminId);
    expect((await download(pending)).status).toBe(400);
    const { rows: none } = await gateway.pool.query(`SELECT 1 FROM audit_logs WHERE target_id = $1`, [pending.id]);
    expect(none).toEqual([]);
  });

  it('mints links living ARCHIVE_LINK_TTL_SECONDS, which the store refuses once expired', async () => {
    const archive = await completedArchive(admins.full.adminId, Buffer.from('short-lived'));
    const answer = await download(archive, shortLinks);
    expect(answer.status).toBe(200);
    expect(new URL(answer.body.downloadUrl).searchParams.get('X-Amz-Expires')).toBe('1');
    const refused = await waitFor(async () => {
      const response = await fetch(answer.body.downloadUrl);
      if (response.status === 403) return response;
      await response.arrayBuffer();
      return undefined;
    }, 10_000);
    expect(await refused.text()).toMatch(/expired/i);
    // Control: a fresh link to the same object works, so the 403 was the expiry.
    expect((await fetch((await download(archive)).body.downloadUrl)).status).toBe(200);
  });
});

describe('presentArchive', () => {
  it('sends every field, timestamps as ISO strings, the size as a decimal string', () => {
    const at = (iso: string) => new Date(iso);
    const archive: Archive = {
      id: '1300000000000000001',
      subjectType: 'guild',
      subjectId: '1300000000000000002',
      requestedBy: '1300000000000000003',
      status: 'completed',
      progressPercent: 100,
      progressStep: 'Completed',
      storageKey: 'archives/guilds/1300000000000000002/1300000000000000001/guild-archive.zip',
      fileSize: '9007199254740993',
      requestedAt: at('2026-01-02T03:04:05.006Z'),
      startedAt: at('2026-01-02T03:04:06.000Z'),
      completedAt: at('2026-01-02T03:05:00.000Z'),
      failedAt: null,
      error: null,
      expiresAt: at('2027-01-02T03:04:05.006Z'),
    };
    expect(presentArchive(archive)).toEqual({
      archive_id: '1300000000000000001',
      subject_type: 'guild',
      subject_id: '1300000000000000002',
      requested_by: '1300000000000000003',
      status: 'completed',
      requested_at: '2026-01-02T03:04:05.006Z',
      started_at: '2026-01-02T03:04:06.000Z',
      completed_at: '2026-01-02T03:05:00.000Z',
      failed_at: null,
      file_size: '9007199254740993',
      progress_percent: 100,
      progress_step: 'Completed',
      error_message: null,
      download_url_expires_at: null,
      expires_at: '2027-01-02T03:04:05.006Z',
    });
    expect(archiveFilename(archive)).toBe('guild-1300000000000000002-archive-1300000000000000001.zip');
  });
});
