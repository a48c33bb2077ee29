import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFile } from 'node:fs/promises';
import { basename, isAbsolute, join } from 'node:path';
import { REPO_ROOT } from '@switchboard/devstack';
// Not in package.json: runtime depends on queue, whose tests depend on testkit, and turbo
// refuses a cycle. The import resolves through the workspace all the same.
import { isReadyMessage, SERVICE_NODE_FLAGS, type ReadyMessage } from '@switchboard/runtime';

/** The pids of a process's live children, from /proc (Linux); none once it is gone. */
export async function childPids(pid: number): Promise<number[]> {
  const listed = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  return listed
    .split(' ')
    .filter((child) => child.length > 0)
    .map(Number);
}

/** A process and every live descendant (a clustered gateway: its primary and processes). */
export async function processTree(pid: number): Promise<number[]> {
  const below = await Promise.all((await childPids(pid)).map((child) => processTree(child)));
  return [pid, ...below.flat()];
}

/**
 * A memory figure of /proc/<pid>/status (`VmRSS`: resident now, `VmHWM`: its peak) of the
 * process and of each live descendant, in MiB, the process first (Linux); NaN for a member that
 * could not be read.
 */
export async function processTreeMemoryMiB(pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number[]> {
  const statuses = await Promise.all(
    (await processTree(pid)).map((member) => readFile(`/proc/${member}/status`, 'utf8').catch(() => '')),
  );
  const pattern = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm');
  return statuses.map((status) => Number(pattern.exec(status)?.[1] ?? Number.NaN) / 1024);
}

/** Whether a process with this pid exists (signal 0 checks without signalling). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface NodeProcess {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Both streams, in the order their chunks arrived. */
  output(): string;
  exit: Promise<ExitStatus>;
  /** Sends `signal` unless the process has exited already, then waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<ExitStatus>;
}

export interface NodeProcessOptions {
  /** Exactly the variables the process gets, plus PATH. */
  env: Record<string, string>;
  args?: string[];
  /** Node's own flags, before the entry. */
  nodeFlags?: readonly string[];
  cwd?: string;
  /** Opens an IPC channel, for a child that reports readiness with process.send. */
  ipc?: boolean;
}

/**
 * `node <entry> …args`, its output kept for assertions and error messages. For a program that
 * is not one of our services (spawnService waits for those); a service goes through spawnService.
 */
export function spawnNode(entry: string, options: NodeProcessOptions): NodeProcess {
  return spawnProgram(process.execPath, {
    ...options,
    args: [...(options.nodeFlags ?? []), entry, ...(options.args ?? [])],
  });
}

/**
 * `<file> …args` itself, as a shell runs an installed command (its `#!` line picks the
 * interpreter): for a test of what users run, such as the CLI's bin. `nodeFlags` is ignored.
 */
export function spawnProgram(file: string, options: NodeProcessOptions): NodeProcess {
  const child = spawn(file, options.args ?? [], {
    cwd: options.cwd,
    env: { PATH: process.env.PATH ?? '', ...options.env },
    stdio: options.ipc ? ['ignore', 'pipe', 'pipe', 'ipc'] : ['ignore', 'pipe', 'pipe'],
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
  const exit = once(child, 'exit').then(([code, signal]) => ({
    code: code as number | null,
    signal: signal as NodeJS.Signals | null,
  }));
  const stop = (signal: NodeJS.Signals = 'SIGTERM') => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    return exit;
  };
  return { child, stdout: () => stdout, stderr: () => stderr, output: () => output, exit, stop };
}

/** A service process that said it is ready; `ready` is what it said (the gateway's `port` …). */
export interface ServiceProcess extends NodeProcess {
  ready: ReadyMessage;
}

/** The service ended before it was ready: how it exited and what it wrote on stderr. */
export class ServiceExitError extends Error {
  readonly status: ExitStatus;
  readonly stderr: string;

  constructor(name: string, status: ExitStatus, stderr: string) {
    super(`${name} exited (${status.code ?? status.signal}) before it was ready:\n${stderr}`);
    this.status = status;
    this.stderr = stderr;
  }
}

/**
 * How long a spawned service may take to say it is ready. A start on a loaded 2-core machine
 * (CI with other tests and CPU burners beside it) is slow and is not what a test checks; the
 * bound stays below the test timeout (vitest.config.ts), so a start that never ends fails with
 * this message and its process killed, not with an anonymous test timeout that leaves the start
 * running into the next test.
 */
export const SERVICE_READY_TIMEOUT_MS = 45_000;

/**
 * `node <nodeFlags, SERVICE_NODE_FLAGS unless given> services/<service>/src/main.ts` from the
 * repository root with exactly `env` (plus PATH), resolved once the process announces readiness over IPC (announceReady in
 * @switchboard/runtime): the gateway after it listens, a worker once it takes jobs. `service` may
 * instead be the path of an entry file (a worker fixture run through runWorkerService). Rejects
 * with a ServiceExitError when the process exits first, and kills it when it is not ready
 * within `readyTimeoutMs`.
 */
export async function spawnService(
  service: string,
  env: Record<string, string>,
  {
    readyTimeoutMs = SERVICE_READY_TIMEOUT_MS,
    nodeFlags = SERVICE_NODE_FLAGS,
  }: { readyTimeoutMs?: number; nodeFlags?: readonly string[] } = {},
): Promise<ServiceProcess> {
  const isEntry = service.includes('/');
  const entry = !isEntry
    ? join(REPO_ROOT, 'services', service, 'src/main.ts')
    : isAbsolute(service)
      ? service
      : join(REPO_ROOT, service);
  const name = isEntry ? basename(entry) : service;
  const started = spawnNode(entry, { cwd: REPO_ROOT, env, ipc: true, nodeFlags });
  let timer: NodeJS.Timeout | undefined;
  try {
    const ready = await Promise.race([
      new Promise<ReadyMessage>((resolve) => {
        started.child.on('message', (message) => {
          if (isReadyMessage(message)) resolve(message);
        });
      }),
      // 'close', not 'exit': by then its stderr has been read to the end.
      once(started.child, 'close').then(([code, signal]) => {
        throw new ServiceExitError(name, { code, signal } as ExitStatus, started.stderr());
      }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`${name} was not ready within ${readyTimeoutMs} ms:\n${started.output()}`)),
          readyTimeoutMs,
        );
      }),
    ]);
    return { ...started, ready };
  } catch (error) {
    await started.stop('SIGKILL');
    throw error;
  } finally {
    clearTimeout(timer);
  }
}
