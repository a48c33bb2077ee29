import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';

/** Whether a process with this pid exists (signal 0 checks without signalling). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export interface NodeProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Both streams, in the order their chunks arrived. */
  output(): string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface NodeProcessOptions {
  /** Exactly the variables the process gets, plus PATH. */
  env: Record<string, string>;
  args?: string[];
  cwd?: string;
}

/** `node <entry> …args`, its output kept for assertions and error messages. */
export function spawnNode(entry: string, options: NodeProcessOptions): NodeProcess {
  const child = spawn(process.execPath, [entry, ...(options.args ?? [])], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    output += chunk.toString();
  });
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    output += chunk.toString();
  });
  const exit = once(child, 'exit').then(([code, signal]) => ({ code: code as number | null, signal: signal as NodeJS.Signals | null }));
  return { child, stdout: () => stdout, stderr: () => stderr, output: () => output, exit };
}
