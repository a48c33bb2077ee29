import { type ChildProcess, fork, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { isReadyMessage, SERVICE_NODE_FLAGS, serviceEnvFor } from '@switchboard/runtime';

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
export function captureOutput(child: ChildProcess): () => string {
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-KEEP_OUTPUT_CHARS);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  return () => output.trim();
}

/** Where a child's stop is registered the moment it exists (so Ctrl-C during its start stops it too). */
export type RegisterStop = (name: string, stop: () => Promise<void>) => void;

export interface SpawnReadyOptions {
  name: string;
  /** Script to run with this node binary. */
  entry: string;
  env: Record<string, string>;
  timeoutMs?: number;
}

/**
 * Spawns one of our services (`node <SERVICE_NODE_FLAGS> <entry>`, with SERVICE_ENV) and resolves once it
 * announces readiness over IPC (announceReady of @switchboard/runtime), not when it first answers: a gateway of several processes answers
 * as soon as its first process listens, and load started then would warm only that process
 * and keep its connections there. Fails early if the child exits; stops it on a timeout.
 */
export async function spawnReady(options: SpawnReadyOptions, register: RegisterStop): Promise<ChildProcess> {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, options.entry], {
    // As the image and `npm start` start it (SERVICE_ENV).
    env: { ...serviceEnvFor(options.env), ...options.env },
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  register(`${options.name} (pid ${child.pid})`, () => stopChild(child));
  const output = captureOutput(child);
  let timer: NodeJS.Timeout | undefined;
  // Ends the wait for an early exit once the start is decided, so a later exit (the stop at the
  // end of the run) waits for nothing.
  const started = new AbortController();
  try {
    await Promise.race([
      new Promise<void>((resolve) => child.on('message', (message) => isReadyMessage(message) && resolve())),
      once(child, 'exit', { signal: started.signal }).then(async ([code, signal]) => {
        // Its last words may still be in the pipe; 'close' waits for them, unless a process it
        // started holds the pipe open.
        await Promise.race([once(child, 'close'), sleep(1_000)]);
        throw new Error(`${options.name} exited (${code ?? signal}) before it was ready:\n${output()}`);
      }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`${options.name} was not ready within ${timeoutMs} ms:\n${output()}`)),
          timeoutMs,
        );
      }),
    ]);
  } catch (error) {
    await stopChild(child);
    throw error;
  } finally {
    clearTimeout(timer);
    started.abort();
  }
  return child;
}

/** Starts one of our HTTP services on a free loopback port; resolves once all its processes listen. */
export async function spawnService(options: SpawnReadyOptions, register: RegisterStop): Promise<RunningService> {
  const port = await freePort();
  const child = await spawnReady(
    { ...options, env: { ...options.env, PORT: String(port), HOST: '127.0.0.1' } },
    register,
  );
  return { name: options.name, url: `http://127.0.0.1:${port}`, pid: child.pid ?? -1, stop: () => stopChild(child) };
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
