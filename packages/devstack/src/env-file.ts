import { rename, rm, writeFile } from 'node:fs/promises';

/**
 * Writes `KEY=VALUE` lines for the CLI, which reads them when its own variables are absent.
 * Mode 600: the URLs carry passwords. Written beside and renamed into place, so a reader
 * polling for the file never sees it empty or half written.
 */
export async function writeEnvFile(path: string, values: Record<string, string>): Promise<void> {
  const lines = Object.entries(values).map(([name, value]) => `${name}=${value}`);
  const partial = `${path}.${process.pid}.partial`;
  await writeFile(partial, `${lines.join('\n')}\n`, { mode: 0o600 });
  await rename(partial, path);
}

export async function removeEnvFile(path: string): Promise<void> {
  await rm(path, { force: true });
}
