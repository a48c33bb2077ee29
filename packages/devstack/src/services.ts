import { access, readdir } from 'node:fs/promises';
import { join } from 'node:path';

export interface AppService {
  /** Log prefix and folder name: `gateway`, `archive-worker`, … */
  name: string;
  /** Entry point, relative to the repository root. */
  entry: string;
}

const GATEWAY: AppService = { name: 'gateway', entry: 'services/gateway/src/main.ts' };

/** The gateway plus every `services/*-worker/src/main.ts`, found afresh on each start. */
export async function discoverServices(repoRoot: string): Promise<AppService[]> {
  const folders = await readdir(join(repoRoot, 'services'), { withFileTypes: true });
  const workers: AppService[] = [];
  for (const folder of folders) {
    if (!folder.isDirectory() || !folder.name.endsWith('-worker')) continue;
    const entry = `services/${folder.name}/src/main.ts`;
    if (await isFile(join(repoRoot, entry))) workers.push({ name: folder.name, entry });
  }
  workers.sort((a, b) => a.name.localeCompare(b.name));
  if (!(await isFile(join(repoRoot, GATEWAY.entry)))) {
    throw new Error(`${GATEWAY.entry} is missing; the stack cannot run without the gateway`);
  }
  return [GATEWAY, ...workers];
}

function isFile(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
