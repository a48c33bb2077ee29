import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LogSink } from './log.ts';

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ChildSpec {
  name: string;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
}

/** A process the stack started and will stop. */
export interface Child {
  name: string;
  pid: number;
  process: ChildProcess;
  /** Settles once, when the process has exited. */
  exited: Promise<ExitStatus>;
  /** True once the process has exited. */
  hasExited(): boolean;
  /** SIGTERM, then SIGKILL to its whole process group after `timeoutMs`. */
  stop(timeoutMs: number): Promise<ExitStatus>;
}

export function describeExit({ code, signal }: ExitStatus): string {
  return signal ? `was killed by ${signal}` : `exited with code ${code}`;
}

/**
 * Spawns a process in its own process group, so that Ctrl-C in the terminal reaches only the
 * supervisor, which then stops everything in order (apps before the stores they use). The IPC
 * channel doubles as a lifeline: the child sees it close if the supervisor dies, even by SIGKILL.
 */
export function spawnChild(spec: ChildSpec, logs: LogSink): Child {
  const child = spawn(spec.command, spec.args, {
    cwd: spec.cwd,
    env: spec.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  logs.pipe(spec.name, child.stdout);
  logs.pipe(spec.name, child.stderr);
  let status: ExitStatus | undefined;
  const exited = new Promise<ExitStatus>((resolve) => {
    child.once('exit', (code, signal) => {
      status = { code, signal };
      // Anything the child left in its group (a grandchild it spawned) goes with it.
      killGroup(child.pid, 'SIGKILL');
      resolve(status);
    });
    // Spawn failures (ENOENT, EACCES) emit 'error' and never 'exit'.
    child.once('error', () => {
      status ??= { code: 127, signal: null };
      resolve(status);
    });
  });
  return {
    name: spec.name,
    pid: child.pid ?? -1,
    process: child,
    exited,
    hasExited: () => status !== undefined,
    async stop(timeoutMs) {
      if (status) return status;
      child.kill('SIGTERM');
      const timedOut = Symbol('timeout');
      const first = await Promise.race([exited, sleep(timeoutMs, timedOut, { ref: false })]);
      if (first !== timedOut) return first;
      logs.writer('devstack')(`${spec.name} did not stop within ${timeoutMs} ms; killing it`);
      killGroup(child.pid, 'SIGKILL');
      return exited;
    },
  };
}

function killGroup(pid: number | undefined, signal: NodeJS.Signals): void {
  if (!pid) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // ESRCH: the group is already empty.
  }
}

/** Waits for the first IPC message that `accept` recognises; rejects if the child exits first. */
export function waitForMessage<T>(child: Child, accept: (message: unknown) => T | undefined): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onMessage = (message: unknown) => {
      const accepted = accept(message);
      if (accepted === undefined) return;
      child.process.off('message', onMessage);
      resolve(accepted);
    };
    child.process.on('message', onMessage);
    void child.exited.then((status) => {
      child.process.off('message', onMessage);
      reject(new Error(`${child.name} ${describeExit(status)} before it was ready`));
    });
  });
}
