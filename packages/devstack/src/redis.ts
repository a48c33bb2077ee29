import { constants } from 'node:fs';
import { access, mkdir } from 'node:fs/promises';
import { connect } from 'node:net';
import { delimiter, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { describeExit, waitForMessage, type Child } from './child.ts';
import { freePort } from './ports.ts';
import type { Supervisor } from './supervisor.ts';
import { z } from '@switchboard/config';

const GUARD = fileURLToPath(new URL('./guard.ts', import.meta.url));
const READY_TIMEOUT_MS = 15_000;

export const REDIS_MISSING =
  'redis-server is not on PATH: install it (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis) or set REDIS_URL to a running Redis.';

export interface EmbeddedRedis {
  child: Child;
  url: string;
  pid: number;
}

/** The first executable `name` in the PATH list, or undefined. */
export async function findOnPath(name: string, path: string): Promise<string | undefined> {
  for (const folder of path.split(delimiter).filter(Boolean)) {
    const candidate = join(folder, name);
    const executable = await access(candidate, constants.X_OK).then(
      () => true,
      () => false,
    );
    if (executable) return candidate;
  }
  return undefined;
}

/** Where redis-server is; checked before anything starts, so a missing one fails fast. */
export async function findRedisServer(path: string): Promise<string> {
  const binary = await findOnPath('redis-server', path);
  if (!binary) throw new Error(REDIS_MISSING);
  return binary;
}

export interface EmbeddedRedisOptions {
  /** The redis-server executable (findRedisServer). */
  binary: string;
  /** Its working folder: the append-only file when `persistent`. */
  dir: string;
  /**
   * Keep the data across restarts in an append-only file (fsync'd every second, so a crash
   * loses at most the last second; a stop loses nothing): `npm start`, whose queued jobs must
   * survive stopping the stack. Tests leave it off: a throwaway store, nothing written to disk.
   */
  persistent?: boolean;
  /** The port to listen on (a restart on the port its clients know); a free one by default. */
  port?: number;
}

const PERSISTENCE_FLAGS = {
  persistent: ['--appendonly', 'yes', '--appendfsync', 'everysec'],
  throwaway: ['--appendonly', 'no'],
};

/** redis-server on a free loopback port, without RDB snapshots (the append-only file is enough). */
export async function startEmbeddedRedis(
  supervisor: Supervisor,
  options: EmbeddedRedisOptions,
): Promise<EmbeddedRedis> {
  const { binary, dir, persistent = false } = options;
  await mkdir(dir, { recursive: true });
  const port = options.port ?? (await freePort());
  const persistence = PERSISTENCE_FLAGS[persistent ? 'persistent' : 'throwaway'];
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', ...persistence, '--dir', dir];
  const child = supervisor.spawnStore({ name: 'redis', command: process.execPath, args: [GUARD, binary, ...args] });
  const pid = await waitForMessage(child, (message) => {
    const parsed = z.object({ type: z.literal('spawned'), pid: z.number().int() }).safeParse(message);
    return parsed.success ? parsed.data.pid : undefined;
  });
  await waitForPong(port, child);
  return { child, url: `redis://127.0.0.1:${port}`, pid };
}

async function waitForPong(port: number, child: Child): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.hasExited()) throw new Error(`redis-server ${describeExit(await child.exited)} during start-up`);
    if (await ping(port)) return;
    await sleep(100);
  }
  throw new Error(`redis-server did not answer PING within ${READY_TIMEOUT_MS} ms`);
}

/** One inline-protocol PING; true on +PONG. */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(1_000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => done(data.toString('latin1').startsWith('+PONG')));
  });
}
