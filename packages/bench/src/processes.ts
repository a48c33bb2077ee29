import { type ChildProcess, fork, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';

/** A child process of ours that answers HTTP on `url`. */
export interface RunningService {
  name: string;
  url: string;
  pid: number;
  stop(): Promise<void>;
}

const STOP_GRACE_MS = 5_000;
const KEEP_OUTPUT_CHARS = 4_000;

/** A port that was free a moment ago (the child binds it right after). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

/** SIGTERM, then SIGKILL after a grace period; resolves once the process is gone. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const graceful = await Promise.race([exited.then(() => true), sleep(STOP_GRACE_MS).then(() => false)]);
  if (!graceful) {
    child.kill('SIGKILL');
    await exited;
  }
}

/** The tail of a child's output, to explain why it died. */
function captureOutput(child: ChildProcess): () => string {
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-KEEP_OUTPUT_CHARS);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => output.trim();
}

/** Polls `url` until it answers 2xx; fails early if the child exits. */
async function waitForHealthy(child: ChildProcess, url: string, timeoutMs: number, output: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`exited (${child.exitCode ?? child.signalCode}) before ${url} answered:\n${output()}`);
    }
    const healthy = await fetch(url, { signal: AbortSignal.timeout(1_000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return;
    await sleep(100);
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${output()}`);
}

/** Where a child's stop is registered the moment it exists (so Ctrl-C during its start stops it too). */
export type RegisterStop = (name: string, stop: () => Promise<void>) => void;

export interface SpawnServiceOptions {
  name: string;
  /** Script to run with this node binary, relative to the working directory. */
  entry: string;
  env: Record<string, string>;
  healthPath: string;
  startTimeoutMs?: number;
}

/** Starts one of our services on a free loopback port and waits for its health route. */
export async function spawnService(options: SpawnServiceOptions, register: RegisterStop): Promise<RunningService> {
  const port = await freePort();
  const child = spawn(process.execPath, [options.entry], {
    env: { ...options.env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  register(`${options.name} (pid ${child.pid})`, () => stopChild(child));
  const output = captureOutput(child);
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHealthy(child, `${url}${options.healthPath}`, options.startTimeoutMs ?? 30_000, output);
  } catch (error) {
    await stopChild(child);
    throw new Error(`${options.name}: ${(error as Error).message}`);
  }
  return { name: options.name, url, pid: child.pid ?? -1, stop: () => stopChild(child) };
}

/**
 * Forks a harness script (e.g. the baseline server) that answers one IPC message with
 * `{ port }` once it listens.
 */
export async function forkHelper(
  name: string,
  entry: string,
  message: unknown,
  env: Record<string, string>,
  register: RegisterStop,
): Promise<RunningService> {
  const child = fork(entry, [], { env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  register(`${name} (pid ${child.pid})`, () => stopChild(child));
  const output = captureOutput(child);
  try {
    const reply = once(child, 'message');
    const died = once(child, 'exit').then(() => {
      throw new Error(`${name} exited before listening:\n${output()}`);
    });
    child.send(message as object);
    const [answer] = (await Promise.race([reply, died])) as [{ port: number }];
    return { name, url: `http://127.0.0.1:${answer.port}`, pid: child.pid ?? -1, stop: () => stopChild(child) };
  } catch (error) {
    await stopChild(child);
    throw error;
  }
}
