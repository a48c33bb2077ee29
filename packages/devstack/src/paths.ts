import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: packages/devstack/src/ is three levels below it. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface DataPaths {
  root: string;
  postgres: string;
  redis: string;
  s3: string;
  /** Connection settings for the CLI while the stack runs (removed on stop). */
  envFile: string;
  /** Holds the supervisor's pid, so a second `npm start` on the same data refuses to run. */
  lockFile: string;
}

export function dataPaths(dataDir: string | undefined): DataPaths {
  const root = resolve(REPO_ROOT, dataDir ?? '.data');
  return {
    root,
    postgres: resolve(root, 'pg'),
    redis: resolve(root, 'redis'),
    s3: resolve(root, 's3'),
    envFile: resolve(root, 'devstack.env'),
    lockFile: resolve(root, 'devstack.pid'),
  };
}
