import { setTimeout as sleep } from 'node:timers/promises';
import { z } from '@switchboard/config';
import { snowflakeSchema } from '@switchboard/contracts';
import {
  createPool,
  poolModeOptions,
  findArchive,
  isDatabaseUnavailable,
  type Archive,
  type Pool,
} from '@switchboard/db';
import { intOption, parseOptions } from '../args.ts';
import { defineCommand } from '../command.ts';
import { CliError, EXIT } from '../output.ts';
import { progressView, type ProgressView } from '../progress.ts';

const optionsSchema = z
  .object({
    id: snowflakeSchema,
    'interval-ms': intOption(100, 60_000).default(1_000),
    'timeout-seconds': intOption(1, 7 * 24 * 3600).default(3_600),
  })
  .transform((o) => ({ archiveId: o.id, intervalMs: o['interval-ms'], timeoutMs: o['timeout-seconds'] * 1000 }));

type WatchOptions = z.infer<typeof optionsSchema>;

/**
 * The admin route that hands out the ZIP: the link is minted there (presigned, short-lived,
 * audited by who asks), not by the CLI, so an operator gets it the way every client does.
 */
function downloadPath(archive: Archive): string {
  return `/v1/admin/archives/${archive.subjectType}/${archive.subjectId}/${archive.id}/download`;
}

/**
 * The row, or `undefined` while the database cannot answer (a restart, a failover): a watch of
 * an hour-long archive outlives that, saying so once per outage. The first read must succeed
 * (a database unreachable from the start is a configuration problem, reported at once), and
 * other errors end the watch.
 */
function pollArchive(pool: Pool, archiveId: string, view: ProgressView) {
  let readOnce = false;
  let unavailable = false;
  return async (): Promise<Archive | null | undefined> => {
    try {
      const archive = await findArchive(pool, archiveId);
      if (unavailable) view.note('database reachable again');
      readOnce = true;
      unavailable = false;
      return archive;
    } catch (error) {
      if (!readOnce || !isDatabaseUnavailable(error)) throw error;
      if (!unavailable) view.note(`database unavailable, retrying: ${(error as Error).message}`);
      unavailable = true;
      return undefined;
    }
  };
}

/** The archive once it completed; throws once it failed or expired; undefined while it is on its way. */
function ended(archive: Archive): Archive | undefined {
  if (archive.status === 'completed') return archive;
  if (archive.status === 'failed') {
    throw new CliError('ARCHIVE_FAILED', `Archive ${archive.id} failed: ${archive.error ?? 'no reason recorded'}.`, {
      details: { archive_id: archive.id, error_message: archive.error },
    });
  }
  if (archive.status === 'expired')
    throw new CliError('ARCHIVE_EXPIRED', `Archive ${archive.id} has expired; request it again.`);
  return undefined;
}

/** Polls the row (the job's source of truth) until the archive ends or time runs out. */
async function watch(pool: Pool, options: WatchOptions, view: ProgressView): Promise<Archive> {
  const deadline = Date.now() + options.timeoutMs;
  const poll = pollArchive(pool, options.archiveId, view);
  let status = 'unknown';
  for (;;) {
    const archive = await poll();
    if (archive === null) throw new CliError('UNKNOWN_ARCHIVE', `No archive ${options.archiveId}.`);
    if (archive) {
      status = archive.status;
      view.show({ status, percent: archive.progressPercent, step: archive.progressStep });
      const done = ended(archive);
      if (done) return done;
    }
    if (Date.now() + options.intervalMs > deadline) {
      throw new CliError(
        'WATCH_TIMEOUT',
        `Archive ${options.archiveId} is still ${status} after ${options.timeoutMs / 1000} s.`,
        {
          exitCode: EXIT.timeout,
          details: { archive_id: options.archiveId, status },
        },
      );
    }
    await sleep(options.intervalMs);
  }
}

/**
 * `archives watch <id>`: follows one archive to its end. The id alone names it (archive ids
 * are unique whatever the subject; the admin routes put subject type and id in the path only
 * for access checks), read from PostgreSQL as the other commands do. Progress goes to stderr,
 * so stdout keeps the one JSON result even when piped while the bar shows on the terminal.
 */
export const archivesWatchCommand = defineCommand({
  name: 'archives watch',
  usage:
    'archives watch <archive id> [--interval-ms 100..60000 (1000)] [--timeout-seconds N (3600)]: follow an archive until it ends, a progress bar on a terminal (one line per change otherwise) on stderr; completed: exit 0 and print the archive with its download_path (GET it with an admin key for a presigned link); failed or expired: exit 1; out of time: exit 124',
  parse: (args) =>
    parseOptions(args, { 'interval-ms': { type: 'string' }, 'timeout-seconds': { type: 'string' } }, optionsSchema, [
      'id',
    ]),
  async run(options, config) {
    const pool = createPool({
      connectionString: config.DATABASE_URL,
      max: 1,
      applicationName: 'switchboard-cli',
      ...poolModeOptions(config),
    });
    const view = progressView(process.stderr);
    try {
      const archive = await watch(pool, options, view);
      return {
        archive_id: archive.id,
        subject_type: archive.subjectType,
        subject_id: archive.subjectId,
        status: archive.status,
        file_size: archive.fileSize,
        completed_at: archive.completedAt?.toISOString() ?? null,
        expires_at: archive.expiresAt.toISOString(),
        download_path: downloadPath(archive),
      };
    } finally {
      view.finish();
      await pool.end();
    }
  },
});
