import { createWriteStream } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { z } from '@switchboard/config';
import { snowflakeSchema } from '@switchboard/contracts';
import { ApiUnreachableError, type ApiClient } from '../api.ts';
import { exactlyOneOf, intOption } from '../args.ts';
import { defineCommand } from '../command.ts';
import { CliError, EXIT } from '../output.ts';
import { progressView, type ProgressView } from '../progress.ts';
import { table } from '../render.ts';

/** An archive as the admin routes present it (docs/decisions.md#fluxer-archive-record). */
interface Archive {
  archive_id: string;
  subject_type: 'user' | 'guild';
  subject_id: string;
  status: 'queued' | 'running' | 'completed' | 'failed' | 'expired';
  file_size: string | null;
  progress_percent: number;
  progress_step: string | null;
  error_message: string | null;
  requested_at: string;
  completed_at: string | null;
  expires_at: string;
}

const pathOf = (archive: Pick<Archive, 'subject_type' | 'subject_id' | 'archive_id'>) =>
  `/v1/admin/archives/${archive.subject_type}/${archive.subject_id}/${archive.archive_id}`;

/**
 * The archive with this id, whatever its subject: the list's keyset cursor (`before`, ids
 * below it, newest first) one above the id gives it first when it exists. Archive ids are
 * unique across subjects; the routes put the subject in the path only for access checks.
 */
async function findArchive(api: ApiClient, archiveId: string): Promise<Archive> {
  const { archives } = await api.request<{ archives: Archive[] }>('POST', '/v1/admin/archives/list', {
    body: { subject_type: 'all', include_expired: true, limit: 1, before: String(BigInt(archiveId) + 1n) },
  });
  const archive = archives[0];
  if (archive?.archive_id !== archiveId) throw new CliError('UNKNOWN_ARCHIVE', `No archive ${archiveId}.`);
  return archive;
}

const archiveIdArgument = [{ name: 'archive-id', description: "the archive's id" }] as const;
const COLUMNS = [
  'archive_id',
  'subject_type',
  'subject_id',
  'status',
  'progress_percent',
  'file_size',
  'requested_at',
  'expires_at',
];

export const archivesTriggerCommand = defineCommand({
  name: 'archives trigger',
  summary: "export a guild's or a user's data to a ZIP (follow it with archives watch)",
  uses: 'api',
  audited: true,
  options: {
    guild: { type: 'string', value: 'ID', description: "the guild's archive" },
    user: { type: 'string', value: 'ID', description: "the user's archive" },
  },
  schema: exactlyOneOf({ guild: snowflakeSchema.optional(), user: snowflakeSchema.optional() }, 'guild', 'user'),
  run: (options, api) =>
    options.guild
      ? api.request<Archive>('POST', '/v1/admin/archives/guild', { body: { guild_id: options.guild } })
      : api.request<Archive>('POST', '/v1/admin/archives/user', { body: { user_id: options.user } }),
});

export const archivesListCommand = defineCommand({
  name: 'archives list',
  summary: 'archives, newest first, a page at a time',
  uses: 'api',
  options: {
    'subject-type': { type: 'string', value: 'user|guild|all', description: 'archives of this kind (all)' },
    'subject-id': { type: 'string', value: 'ID', description: "one guild's or user's (with --subject-type)" },
    'requested-by': { type: 'string', value: 'ID', description: 'requested by this admin' },
    limit: { type: 'string', value: '1..200', description: 'archives per page (50)' },
    before: { type: 'string', value: 'ID', description: 'the next page: next_cursor of the page before' },
    'include-expired': { type: 'boolean', description: 'list expired archives too' },
  },
  schema: z.object({
    'subject-type': z.enum(['user', 'guild', 'all']).optional(),
    'subject-id': snowflakeSchema.optional(),
    'requested-by': snowflakeSchema.optional(),
    limit: intOption(1, 200).optional(),
    before: snowflakeSchema.optional(),
    'include-expired': z.boolean().optional(),
  }),
  run: (options, api) =>
    api.request<{ archives: Archive[]; next_cursor: string | null }>('POST', '/v1/admin/archives/list', {
      body: {
        subject_type: options['subject-type'],
        subject_id: options['subject-id'],
        requested_by: options['requested-by'],
        limit: options.limit,
        before: options.before,
        include_expired: options['include-expired'],
      },
    }),
  render: (page) => ({
    kind: 'sections',
    sections: [
      table(page.archives, COLUMNS, '(no archives)'),
      ...(page.next_cursor ? [{ kind: 'text' as const, text: `more: --before ${page.next_cursor}` }] : []),
    ],
  }),
});

export const archivesGetCommand = defineCommand({
  name: 'archives get',
  summary: 'one archive, by its id alone',
  uses: 'api',
  positionals: archiveIdArgument,
  schema: z.object({ 'archive-id': snowflakeSchema }),
  run: (options, api) => findArchive(api, options['archive-id']),
});

/**
 * The archive now, or `undefined` while the gateway cannot answer (a restart, a deploy, a 503
 * while its database is away): a watch of an hour-long archive outlives that, saying so once
 * per outage. The first read must succeed (a wrong URL or key is reported at once).
 */
function pollArchive(api: ApiClient, first: Archive, view: ProgressView) {
  let unavailable = false;
  return async (): Promise<Archive | undefined> => {
    try {
      const { archive } = await api.request<{ archive: Archive | null }>('GET', pathOf(first));
      if (unavailable) view.note('gateway reachable again');
      unavailable = false;
      if (archive === null) throw new CliError('UNKNOWN_ARCHIVE', `No archive ${first.archive_id}.`);
      return archive;
    } catch (error) {
      const transient =
        error instanceof ApiUnreachableError ||
        (error instanceof CliError && (error.code === 'SERVICE_UNAVAILABLE' || error.code === 'RATE_LIMITED'));
      if (!transient) throw error;
      if (!unavailable) view.note(`gateway unavailable, retrying: ${error.message}`);
      unavailable = true;
      return undefined;
    }
  };
}

/** The archive once it completed; throws once it failed or expired; undefined while on its way. */
function ended(archive: Archive): Archive | undefined {
  if (archive.status === 'completed') return archive;
  if (archive.status === 'failed') {
    throw new CliError(
      'ARCHIVE_FAILED',
      `Archive ${archive.archive_id} failed: ${archive.error_message ?? 'no reason recorded'}.`,
      { details: { archive_id: archive.archive_id, error_message: archive.error_message } },
    );
  }
  if (archive.status === 'expired')
    throw new CliError('ARCHIVE_EXPIRED', `Archive ${archive.archive_id} has expired; request it again.`);
  return undefined;
}

interface WatchOptions {
  'archive-id': string;
  'interval-ms': number;
  'timeout-seconds': number;
}

async function watch(api: ApiClient, options: WatchOptions, view: ProgressView): Promise<Archive> {
  const timeoutMs = options['timeout-seconds'] * 1000;
  const deadline = Date.now() + timeoutMs;
  let archive = await findArchive(api, options['archive-id']);
  const poll = pollArchive(api, archive, view);
  for (;;) {
    view.show({ status: archive.status, percent: archive.progress_percent, step: archive.progress_step });
    const done = ended(archive);
    if (done) return done;
    if (Date.now() + options['interval-ms'] > deadline) {
      throw new CliError(
        'WATCH_TIMEOUT',
        `Archive ${archive.archive_id} is still ${archive.status} after ${options['timeout-seconds']} s.`,
        { exitCode: EXIT.timeout, details: { archive_id: archive.archive_id, status: archive.status } },
      );
    }
    await sleep(options['interval-ms']);
    archive = (await poll()) ?? archive;
  }
}

/**
 * `archives watch <id>`: follows one archive to its end through the API. Progress goes to
 * stderr (a bar redrawn in place on a terminal, one line per change otherwise), so stdout keeps
 * the one result even when piped.
 */
export const archivesWatchCommand = defineCommand({
  name: 'archives watch',
  summary: 'follow an archive until it ends, with a progress bar on stderr',
  description:
    'Completed: exit 0 and the archive with its download_path (or use archives download). Failed or expired: exit 1. Out of time: exit 124. A gateway that stops answering meanwhile is waited out.',
  uses: 'api',
  positionals: archiveIdArgument,
  options: {
    'interval-ms': { type: 'string', value: '100..60000', description: 'how often to look (1000)' },
    'timeout-seconds': { type: 'string', value: 'N', description: 'give up after this long (3600): exit 124' },
  },
  schema: z.object({
    'archive-id': snowflakeSchema,
    'interval-ms': intOption(100, 60_000).default(1_000),
    'timeout-seconds': intOption(1, 7 * 24 * 3600).default(3_600),
  }),
  async run(options, api) {
    const view = progressView(process.stderr);
    try {
      const archive = await watch(api, options, view);
      return {
        archive_id: archive.archive_id,
        subject_type: archive.subject_type,
        subject_id: archive.subject_id,
        status: archive.status,
        file_size: archive.file_size,
        completed_at: archive.completed_at,
        expires_at: archive.expires_at,
        download_path: `${pathOf(archive)}/download`,
      };
    } finally {
      view.finish();
    }
  },
});

/**
 * A signal that aborts once `idleMs` pass without `touch()`: bounds the wait for the answer's
 * head and then each pause between bytes, so a stalled download fails instead of hanging.
 */
function idleAbort(idleMs: number) {
  const controller = new AbortController();
  const expire = () => controller.abort(new Error(`no data for ${idleMs} ms`));
  let timer = setTimeout(expire, idleMs);
  return {
    signal: controller.signal,
    touch() {
      clearTimeout(timer);
      timer = setTimeout(expire, idleMs);
    },
    stop: () => clearTimeout(timer),
  };
}

/**
 * `archives download <id>`: asks the API for a fresh presigned link (audited, as for every
 * client) and saves the ZIP, first under a temporary name, so a cut download leaves no file
 * that looks whole.
 */
export const archivesDownloadCommand = defineCommand({
  name: 'archives download',
  summary: "save a completed archive's ZIP to a file",
  uses: 'api',
  audited: true,
  positionals: archiveIdArgument,
  options: {
    output: { type: 'string', value: 'FILE', description: 'where to save it (<type>-<subject>-archive-<id>.zip here)' },
  },
  schema: z.object({ 'archive-id': snowflakeSchema, output: z.string().min(1).optional() }),
  async run(options, api) {
    const archive = await findArchive(api, options['archive-id']);
    const link = await api.request<{ downloadUrl: string; expiresAt: string }>('GET', `${pathOf(archive)}/download`);
    const file = resolve(
      options.output ?? `${archive.subject_type}-${archive.subject_id}-archive-${archive.archive_id}.zip`,
    );
    const partial = `${file}.part`;
    const idle = idleAbort(api.timeoutMs);
    try {
      const response = await fetch(link.downloadUrl, { signal: idle.signal });
      if (!response.ok || !response.body) {
        throw new CliError('DOWNLOAD_FAILED', `The storage answered ${response.status} for the archive's link.`);
      }
      let bytes = 0;
      const count = new Transform({
        transform(chunk: Buffer, _encoding, done) {
          idle.touch();
          bytes += chunk.length;
          done(null, chunk);
        },
      });
      await pipeline(Readable.fromWeb(response.body as never), count, createWriteStream(partial));
      await rename(partial, file);
      return { archive_id: archive.archive_id, file, bytes };
    } catch (error) {
      await rm(partial, { force: true });
      if (error instanceof CliError) throw error;
      throw new CliError('DOWNLOAD_FAILED', `The archive could not be saved: ${(error as Error).message}`);
    } finally {
      idle.stop();
    }
  },
});
