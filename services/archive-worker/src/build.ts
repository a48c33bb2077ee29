import type { Readable } from 'node:stream';
import { ZipFile } from 'yazl';
import { storageKeys } from '@switchboard/contracts';
import { completeArchive, findArchive, startArchive, type Archive, type Pool } from '@switchboard/db';
import type { Logger } from '@switchboard/logger';
import { attachmentDisposition, type Storage } from '@switchboard/storage';
import { guildPlan } from './guild-plan.ts';
import type { ArchiveMetrics } from './metrics.ts';
import { useNativeCrc32InYazl } from './native-crc32.ts';
import { progressWriter } from './progress.ts';
import { userPlan } from './user-plan.ts';
import { addLazyEntry } from './zip-entry.ts';

export interface BuildDeps {
  pool: Pool;
  storage: Storage;
  logger: Logger;
  /** Least time between two progress writes (docs/decisions.md#archive-exports: at most once a second). */
  progressIntervalMs: number;
  metrics?: ArchiveMetrics;
}

useNativeCrc32InYazl();

/**
 * gzip's default level, the baseline's: JSON deflates well at it for the CPU gzip spends
 * (packages/bench/README.md#archive-export).
 */
const COMPRESSION_LEVEL = 6;

/**
 * One archive-export job: the row goes to `running` (a retry starts clean), the plan's entries
 * are written one after the other into a ZIP (yazl: streaming, ZIP64 when needed) that streams
 * straight into an S3 multipart upload — nothing in a temporary file or in memory beyond a page
 * and the upload's parts — then the row is completed with the key and size. A failed attempt's
 * upload is aborted by the storage layer, so no half object is ever served; a completed
 * archive is never rebuilt (the row is no longer queued or running).
 */
export function archiveRunner(deps: BuildDeps): (payload: { archiveId: string }) => Promise<unknown> {
  return async ({ archiveId }) => {
    const archive = await startArchive(deps.pool, archiveId, 'Starting archive');
    if (!archive) return { archiveId, status: (await findArchive(deps.pool, archiveId))?.status ?? 'missing' };
    const key = storageKeys.archive(archive.subjectType, archive.subjectId, archive.id);
    const size = await writeZip(deps, archive, key);
    deps.metrics?.written(archive.subjectType, size);
    await completeArchive(deps.pool, archive.id, key, size);
    deps.logger.info({ archiveId, subjectType: archive.subjectType, bytes: size }, 'archive completed');
    return { archiveId, status: 'completed', fileSize: size };
  };
}

async function writeZip(deps: BuildDeps, archive: Archive, key: string): Promise<number> {
  const progress = progressWriter(deps.pool, archive.id, deps.progressIntervalMs);
  const plan =
    archive.subjectType === 'guild'
      ? await guildPlan(deps.pool, deps.storage, archive.subjectId, progress)
      : await userPlan(deps.pool, deps.storage, archive.subjectId, progress);
  const zip = new ZipFile();
  const output = zip.outputStream as Readable;
  // An entry that fails (a query, an object read) must fail the upload, not leave it waiting.
  zip.on('error', (error: Error) => output.destroy(error));
  const filename =
    archive.subjectType === 'guild' ? `guild-${archive.subjectId}-archive.zip` : `user-${archive.subjectId}-data.zip`;
  // Started first: the ZIP streams out while the plan's later entries are still being looked up.
  const uploaded = deps.storage.upload(key, output, {
    contentType: 'application/zip',
    contentDisposition: attachmentDisposition(filename),
  });
  uploaded.catch(() => {}); // awaited below, once every entry is added
  const mtime = new Date();
  try {
    for await (const entry of plan.entries) {
      addLazyEntry(zip, entry, { compressionLevel: COMPRESSION_LEVEL, mtime }, (error) => output.destroy(error));
    }
    zip.end();
  } catch (error) {
    // A plan that cannot be completed (an asset lookup failed) fails the upload, which aborts it.
    output.destroy(error instanceof Error ? error : new Error(String(error)));
  }
  const { size } = await uploaded;
  // No progress write here: completeArchive sets 100 / Completed next, in one statement.
  return size;
}
