import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { spawnProgram, type NodeProcess } from '@switchboard/testkit/processes';

/** The installed command, as `npm install` links it and `npx switchboard` runs it. */
const BIN = fileURLToPath(new URL('../../../node_modules/.bin/switchboard', import.meta.url));

function spawnBin(args: string[], env: Record<string, string>): NodeProcess {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run npm install, which links the CLI's bin`);
  return spawnProgram(BIN, { env, args });
}

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `switchboard …args` (the real bin) with exactly `env` (plus PATH), to its exit. */
export async function runCli(args: string[], env: Record<string, string>): Promise<CliRun> {
  const run = spawnBin(args, env);
  const { code } = await run.exit;
  return { code: code ?? 1, stdout: run.stdout(), stderr: run.stderr() };
}

/** Starts `switchboard …args` without waiting: for a test that acts while it runs. */
export function startCli(args: string[], env: Record<string, string>): NodeProcess {
  return spawnBin(args, env);
}

/** The single JSON line a failing command prints on stderr. */
export function errorLine(run: CliRun): { error: string; message: string; details?: unknown } {
  const lines = run.stderr.trim().split('\n');
  if (lines.length !== 1) throw new Error(`expected one stderr line, got: ${run.stderr}`);
  return JSON.parse(lines[0]!);
}

/** The JSON a `--json` run printed, after checking it exited 0. */
// biome-ignore lint/suspicious/noExplicitAny: tests read whichever fields of the JSON they check
export function jsonOf<T = any>(run: CliRun): T {
  if (run.code !== 0) throw new Error(`exit ${run.code}: ${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}
