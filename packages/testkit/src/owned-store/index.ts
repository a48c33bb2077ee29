import { createWriteStream } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createLogSink,
  createSupervisor,
  findRedisServer,
  REPO_ROOT,
  startEmbeddedPostgres,
  startEmbeddedRedis,
  type Supervisor,
} from '@switchboard/devstack';
import { processTree } from '../processes.ts';
import { startS3Process } from '../s3-process.ts';
import type { TestServices } from '../services/index.ts';

export type StoreKind = 'postgres' | 'redis' | 's3';

/**
 * A store process a scenario owns (the run's shared stores are never frozen or killed): the
 * servers `npm start` embeds, on a free port, data in a temporary folder removed at the end.
 */
export interface OwnedStore {
  kind: StoreKind;
  /** Where it listens: a `redis://` or `postgres://` URL, or the S3 endpoint. */
  address: string;
  /** The run's services with this store in place of the shared one. */
  services(shared: TestServices): TestServices;
  /** SIGSTOP to the server and every process under it: it holds its connections and answers nothing. */
  freeze(): Promise<void>;
  /** SIGCONT: it goes on with everything that queued up meanwhile. */
  thaw(): Promise<void>;
  /** Redis: SIGKILL (its append-only file keeps what it acknowledged); PostgreSQL: a fast shutdown. */
  kill(): Promise<void>;
  /** Starts it again on the same port and data. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

const STOP_TIMEOUT_MS = 10_000;

interface Running {
  pid: number;
  /** Resolves once the store process has exited. */
  exited: Promise<unknown>;
  stop(): Promise<void>;
}

/** Signals the process first, then everything under it (a PostgreSQL's backends). */
async function signalTree(pid: number, signal: NodeJS.Signals): Promise<void> {
  for (const member of await processTree(pid)) {
    try {
      process.kill(member, signal);
    } catch {
      // Gone meanwhile: nothing to freeze or thaw.
    }
  }
}

/** One supervisor per store run: a store that dies stops its supervisor, and only that. */
function storeSupervisor(folder: string): Supervisor {
  const env = Object.fromEntries(
    Object.entries(process.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
  const log = createWriteStream(join(folder, 'stores.log'), { flags: 'a' });
  const supervisor = createSupervisor({
    logs: createLogSink(log, false),
    cwd: REPO_ROOT,
    env,
    stopTimeoutMs: STOP_TIMEOUT_MS,
  });
  supervisor.onStop(() => new Promise<void>((resolve) => log.end(() => resolve())));
  return supervisor;
}

async function startRedis(folder: string, port?: number): Promise<Running & { url: string }> {
  const binary = await findRedisServer(process.env.PATH ?? '');
  const supervisor = storeSupervisor(folder);
  const redis = await startEmbeddedRedis(supervisor, { binary, dir: join(folder, 'redis'), persistent: true, port });
  return {
    pid: redis.pid,
    url: redis.url,
    exited: redis.child.exited,
    stop: () => supervisor.shutdown(0, 'scenario over').then(() => {}),
  };
}

async function startPostgres(folder: string, port?: number): Promise<Running & { url: string }> {
  const supervisor = storeSupervisor(folder);
  const postgres = await startEmbeddedPostgres(supervisor, join(folder, 'pg'), port);
  return {
    pid: postgres.pid,
    url: postgres.url,
    exited: postgres.child.exited,
    stop: () => supervisor.shutdown(0, 'scenario over').then(() => {}),
  };
}

async function startS3(folder: string): Promise<Running & { endpoint: string }> {
  const server = await startS3Process(join(folder, 's3'));
  return {
    pid: server.pid,
    endpoint: server.endpoint,
    exited: server.exited,
    stop: async () => {
      await signalTree(server.pid, 'SIGCONT');
      await server.stop();
    },
  };
}

const portOf = (url: string) => Number(new URL(url).port);

/** Starts a store of `kind` of the scenario's own. */
export async function startOwnedStore(kind: StoreKind): Promise<OwnedStore> {
  const folder = await mkdtemp(join(tmpdir(), `switchboard-faults-${kind}-`));
  // Run as root, PostgreSQL runs as the `postgres` user, which must be able to enter it.
  await chmod(folder, 0o755);
  let current: Running & { url?: string; endpoint?: string };
  const start = (port?: number) =>
    kind === 'redis' ? startRedis(folder, port) : kind === 'postgres' ? startPostgres(folder, port) : startS3(folder);
  try {
    current = await start();
  } catch (error) {
    await rm(folder, { recursive: true, force: true });
    throw error;
  }
  const address = current.url ?? current.endpoint!;
  const stopCurrent = async () => {
    // A frozen store cannot stop.
    await signalTree(current.pid, 'SIGCONT');
    await current.stop();
  };
  return {
    kind,
    address,
    services: (shared) =>
      kind === 'redis'
        ? { ...shared, redisUrl: address }
        : kind === 'postgres'
          ? { ...shared, databaseUrl: address }
          : { ...shared, s3: { ...shared.s3, endpoint: address, accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } },
    freeze: () => signalTree(current.pid, 'SIGSTOP'),
    thaw: () => signalTree(current.pid, 'SIGCONT'),
    kill: async () => {
      if (kind === 's3') throw new Error('the S3 store is not restarted');
      // SIGKILLing the postmaster would leave its backends holding the shared memory; SIGINT
      // is PostgreSQL's fast shutdown: clients are disconnected, nothing committed is lost.
      process.kill(current.pid, kind === 'redis' ? 'SIGKILL' : 'SIGINT');
      await current.exited;
      await current.stop();
    },
    restart: async () => {
      current = await start(portOf(address));
    },
    stop: async () => {
      await stopCurrent().catch(() => {});
      await rm(folder, { recursive: true, force: true });
    },
  };
}
