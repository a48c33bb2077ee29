import { fileURLToPath } from 'node:url';
import { spawnNode, type NodeProcess } from '@switchboard/testkit';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `node packages/cli/src/main.ts …args` with exactly `env` (plus PATH), to its exit. */
export async function runCli(args: string[], env: Record<string, string>): Promise<CliRun> {
  const run = spawnNode(MAIN, { env, args });
  const { code } = await run.exit;
  return { code: code ?? 1, stdout: run.stdout(), stderr: run.stderr() };
}

/** Starts `node packages/cli/src/main.ts …args` without waiting: for a test that acts while it runs. */
export function startCli(args: string[], env: Record<string, string>): NodeProcess {
  return spawnNode(MAIN, { env, args });
}

/** The single JSON line a failing command prints on stderr. */
export function errorLine(run: CliRun): { error: string; message: string; details?: unknown } {
  const lines = run.stderr.trim().split('\n');
  if (lines.length !== 1) throw new Error(`expected one stderr line, got: ${run.stderr}`);
  return JSON.parse(lines[0]!);
}
