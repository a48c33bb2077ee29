import { Readable } from 'node:stream';
import type { Storage } from '@switchboard/storage';

/** One file of the ZIP: opened only when the writer reaches it, so entries stream one by one. */
export interface ArchiveEntry {
  path: string;
  open(): Readable | Promise<Readable>;
}

/**
 * What one archive holds, in order. An iterable that may wait: the assets, last in every
 * archive, are looked up in the bucket while the entries before them are written.
 */
export interface ArchivePlan {
  entries: AsyncIterable<ArchiveEntry>;
}

/**
 * `first`, then what `later` resolves to. `later` is already under way; until it is reached
 * its failure must not count as unhandled (it fails the archive then).
 */
export function entriesThen(
  first: readonly ArchiveEntry[],
  later: Promise<readonly ArchiveEntry[]>,
): AsyncIterable<ArchiveEntry> {
  later.catch(() => {});
  return (async function* () {
    yield* first;
    yield* await later;
  })();
}

/** Objects checked at once when listing an archive's assets. */
const HEAD_CONCURRENCY = 8;

/**
 * The asset entries whose objects exist, each streamed from the bucket when reached, and a
 * `missing-assets.json` listing the others (docs/decisions.md#archive-exports: a missing object is skipped, not fatal).
 */
export async function assetEntries(
  storage: Storage,
  assets: ReadonlyArray<{ path: string; key: string }>,
): Promise<ArchiveEntry[]> {
  const present: boolean[] = new Array<boolean>(assets.length).fill(false);
  let next = 0;
  const lane = async () => {
    for (let index = next++; index < assets.length; index = next++)
      present[index] = (await storage.headObject(assets[index]!.key)) !== null;
  };
  await Promise.all(Array.from({ length: HEAD_CONCURRENCY }, lane));
  const entries: ArchiveEntry[] = assets
    .filter((_, index) => present[index])
    .map(({ path, key }) => ({
      path,
      open: async () => {
        const stream = await storage.getObjectStream(key);
        // Gone since the check: fail the attempt; the retry lists it as missing.
        if (!stream) throw new Error(`asset ${key} disappeared while the archive was written`);
        return stream;
      },
    }));
  const missing = assets.filter((_, index) => !present[index]).map(({ path, key }) => ({ path, key }));
  if (missing.length > 0) entries.push({ path: 'missing-assets.json', open: () => jsonFile(missing) });
  return entries;
}

function jsonFile(value: unknown): Readable {
  return Readable.from([Buffer.from(JSON.stringify(value, null, 2))]);
}
