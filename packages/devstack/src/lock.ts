import { readFile, rm, writeFile } from 'node:fs/promises';

/**
 * Claims the data folder for this process. A second `npm start` on the same data would fight
 * over PostgreSQL's data directory; a lock left by a killed run (its pid gone) is taken over.
 */
export async function acquireLock(lockFile: string): Promise<() => Promise<void>> {
  const holder = Number.parseInt(await readFile(lockFile, 'utf8').catch(() => ''), 10);
  if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder)) {
    throw new Error(`another npm start (pid ${holder}) is using this data folder; stop it first`);
  }
  await writeFile(lockFile, `${process.pid}\n`);
  return async () => {
    await rm(lockFile, { force: true });
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
