import { readdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

/** 'initialised' when PG_VERSION is there, 'empty' when initdb may run, otherwise an error. */
export async function dataDirState(dataDir: string): Promise<'initialised' | 'empty'> {
  const entries: string[] = await readdir(dataDir).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  if (entries.includes('PG_VERSION')) return 'initialised';
  if (entries.length === 0) return 'empty';
  throw new Error(`${dataDir} is neither empty nor a PostgreSQL data directory; move it away and start again`);
}

/**
 * Run as root, PostgreSQL runs as the `postgres` user, which must be able to walk down to its
 * data directory. A home folder with mode 700 on the way is the usual culprit; say so up front
 * rather than let initdb fail with a permission error.
 */
export async function assertReachableByOthers(dataDir: string): Promise<void> {
  for (let folder = dirname(dataDir); ; folder = dirname(folder)) {
    const info = await stat(folder).catch(() => undefined);
    if (info && (info.mode & 0o001) === 0) {
      throw new Error(
        `npm start runs PostgreSQL as the "postgres" user when started as root, and that user cannot enter ${folder}; ` +
          `set DEVSTACK_DATA_DIR to a folder others can reach, or start as a normal user`,
      );
    }
    if (folder === dirname(folder)) return;
  }
}
