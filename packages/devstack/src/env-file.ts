import { rm, writeFile } from 'node:fs/promises';

/**
 * Writes `KEY=VALUE` lines for the CLI, which reads them when its own variables are absent.
 * Mode 600: the URLs carry passwords.
 */
export async function writeEnvFile(path: string, values: Record<string, string>): Promise<void> {
  const lines = Object.entries(values).map(([name, value]) => `${name}=${value}`);
  await writeFile(path, `${lines.join('\n')}\n`, { mode: 0o600 });
}

export async function removeEnvFile(path: string): Promise<void> {
  await rm(path, { force: true });
}
