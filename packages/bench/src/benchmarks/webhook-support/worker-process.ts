import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { REPO_ROOT } from '../../config.ts';
import { stopChild } from '../../processes.ts';
import type { BenchContext } from '../../types.ts';

export const WEBHOOK_WORKER_ENTRY = join(REPO_ROOT, 'services/webhook-worker/src/main.ts');

/**
 * Spawns a worker process (no HTTP: readiness is a log line) and registers its stop. Resolves
 * once it logged `worker started`, i.e. it takes jobs.
 */
export async function spawnWorker(context: BenchContext, entry: string, env: Record<string, string>, timeoutMs = 30_000): Promise<ChildProcess> {
  const child = spawn(process.execPath, [entry], { env: { ...env, LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe'] });
  context.cleanup.defer(`worker (pid ${child.pid})`, () => stopChild(child));
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const deadline = Date.now() + timeoutMs;
  while (!output.includes('"msg":"worker started"')) {
    if (child.exitCode !== null) throw new Error(`worker exited (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline) throw new Error(`worker not ready within ${timeoutMs} ms:\n${output}`);
    await sleep(50);
  }
  return child;
}
