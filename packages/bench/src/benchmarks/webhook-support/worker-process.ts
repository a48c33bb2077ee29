import type { ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../../config.ts';
import { spawnReady } from '../../processes.ts';
import type { BenchContext } from '../../types.ts';

export const WEBHOOK_WORKER_ENTRY = join(REPO_ROOT, 'services/webhook-worker/src/main.ts');

/** Spawns a worker process, registers its stop, and resolves once it takes jobs. */
export function spawnWorker(
  context: BenchContext,
  entry: string,
  env: Record<string, string>,
  timeoutMs = 30_000,
): Promise<ChildProcess> {
  return spawnReady({ name: 'worker', entry, env: { ...env, LOG_LEVEL: 'info' }, timeoutMs }, (name, stop) =>
    context.cleanup.defer(name, stop),
  );
}
