import type { Readable } from 'node:stream';
import type { ZipFile } from 'yazl';
import type { ArchiveEntry } from './plan.ts';

/**
 * Adds `entry` to `zip`, opened only when the writer reaches it. yazl listens for a source's
 * end but not for its errors, so a source that fails while it is read (a query of the archive
 * failing mid-page, an object read cut off) would be an unhandled 'error' that ends the worker
 * process: `failed` takes it instead, and fails the upload.
 */
export function addLazyEntry(
  zip: ZipFile,
  entry: ArchiveEntry,
  options: { compressionLevel: number; mtime: Date },
  failed: (error: Error) => void,
): void {
  zip.addReadStreamLazy(entry.path, options, (done) => {
    Promise.resolve()
      .then(() => entry.open())
      .then(
        (stream) => {
          stream.once('error', failed);
          done(null, stream);
        },
        (error: unknown) => done(error, undefined as unknown as Readable),
      );
  });
}
