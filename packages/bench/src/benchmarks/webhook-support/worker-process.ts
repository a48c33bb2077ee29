import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { isReadyMessage } from '@switchboard/runtime';
import { REPO_ROOT } from '../../config.ts';
import { stopChild } from '../../processes.ts';
import type { BenchContext } from '../../types.ts';

export const WEBHOOK_WORKER_ENTRY = join(REPO_ROOT, 'services/webhook-worker/src/main.ts');

/**
 * Spawns a worker process and registers its stop. Resolves once it announces readiness over
 * IPC (`announceReady` of @switchboard/runtime: it takes jobs), not on a log line.
 */
export async function spawnWorker(context: BenchContext, entry: string, env: Record<string, string>, timeoutMs = 30_000): Promise<ChildProcess> {
  const child = spawn(process.execPath, [entry], { env: { ...env, LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  context.cleanup.defer(`worker (pid ${child.pid})`, () => stopChild(child));
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      new Promise<void>((resolve) => child.on('message', (message) => isReadyMessage(message) && resolve())),
      new Promise<never>((_, reject) => child.once('exit', (code) => reject(new Error(`worker exited (${code}):\n${output}`)))),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`worker not ready within ${timeoutMs} ms:\n${output}`)), timeoutMs);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
  return child;
}
