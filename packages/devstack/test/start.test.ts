import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { isAlive, spawnNode, type NodeProcess } from '@switchboard/testkit/processes';
import { waitFor } from '@switchboard/testkit/wait';
import { freePort } from '../src/ports.ts';
import { REPO_ROOT } from '../src/paths.ts';

const START = join(REPO_ROOT, 'packages/devstack/src/start.ts');
// initdb alone takes seconds on a loaded 2-core machine.
const READY_WITHIN_MS = 120_000;
const STOP_WITHIN_MS = 30_000;
// A worker loads its config, opens its pool, Redis and S3 clients and starts taking jobs.
const BACK_WITHIN_MS = 60_000;
const QUEUED_KEY = 'devstack-test:queued';
// postgres and redis-server.
const STORE_PIDS = 2;
// The stores, the gateway and the workers at least.
const RUNNING_STACK_PIDS = 3;

const running = new Set<NodeProcess>();
let dataDir: string | undefined;

afterAll(async () => {
  // Only reached with a live stack when an assertion failed: SIGKILL the supervisor, and its
  // children follow through their lifelines.
  await Promise.all([...running].map((stack) => stack.stop('SIGKILL')));
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('npm start', () => {
  it(
    'runs everything embedded, restarts a killed worker, stops cleanly on SIGTERM, keeps Redis data across starts',
    async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'sb-devstack-'));
      // Run as root, PostgreSQL runs as the postgres user, which must be able to enter it.
      await chmod(dataDir, 0o755);
      const envFile = join(dataDir, 'devstack.env');

      const first = await launchStack(dataDir);
      await waitForStatus(`${first.baseUrl}/readyz`, 200, first.stack);
      const discovery = await fetch(`${first.baseUrl}/v1/.well-known/service`);
      expect(discovery.status).toBe(200);
      expect(await discovery.json()).toHaveProperty('api_code_version');

      const settings = await readFile(envFile, 'utf8');
      expect(settings).toMatch(/^DATABASE_URL=postgres:\/\/.+@127\.0\.0\.1:\d+\/switchboard$/m);
      expect(settings).toMatch(/^REDIS_URL=redis:\/\/127\.0\.0\.1:\d+$/m);
      expect(settings).toMatch(/^S3_ENDPOINT=http:\/\/127\.0\.0\.1:\d+$/m);

      // A worker that dies is started again, and the rest of the stack does not notice.
      const worker = Number(/started webhook-worker \(pid (\d+)/.exec(first.stack.output())?.[1]);
      process.kill(worker, 'SIGKILL');
      const isBack = async () => /webhook-worker is back \(pid \d+, restart 1\)/.test(first.stack.output());
      await waitWhileRunning(first.stack, isBack, 'webhook-worker to be back', BACK_WITHIN_MS);
      expect(first.stack.output()).toMatch(
        /webhook-worker was killed by SIGKILL after \d+ ms; restarting it in \d+ ms/,
      );
      expect(first.stack.child.exitCode).toBeNull();
      expect((await fetch(`${first.baseUrl}/readyz`)).status).toBe(200);

      await withRedis(redisUrl(settings), (redis) => redis.lpush(QUEUED_KEY, 'job-1'));
      await stopStack(first.stack, dataDir, RUNNING_STACK_PIDS);
      await expect(readFile(envFile, 'utf8')).rejects.toThrow(/ENOENT/);

      // The second start finds the data folder as the first left it. The env file is written
      // once the stores are up, before the apps start: no need to wait for those again.
      const second = await launchStack(dataDir);
      const envFileWritten = () => readFile(envFile, 'utf8').catch(() => undefined);
      const secondSettings = await waitWhileRunning(
        second.stack,
        envFileWritten,
        "the second start's stores",
        READY_WITHIN_MS,
      );
      const queued = await withRedis(redisUrl(secondSettings), (redis) => redis.lrange(QUEUED_KEY, 0, -1));
      expect(queued).toEqual(['job-1']);
      // Stopped while the apps may still be starting: only the stores are sure to have a pid.
      await stopStack(second.stack, dataDir, STORE_PIDS);
    },
    2 * (READY_WITHIN_MS + STOP_WITHIN_MS) + BACK_WITHIN_MS + 30_000,
  );
});

/** npm start with everything embedded and its data in `folder`. */
async function launchStack(folder: string): Promise<{ stack: NodeProcess; baseUrl: string }> {
  const port = await freePort();
  // Deliberately no DATABASE_URL, REDIS_URL or S3_ENDPOINT: everything is embedded.
  const env = { HOME: process.env.HOME ?? folder, PORT: String(port), DEVSTACK_DATA_DIR: folder };
  const stack = spawnNode(START, { cwd: REPO_ROOT, env });
  running.add(stack);
  return { stack, baseUrl: `http://127.0.0.1:${port}` };
}

/**
 * SIGTERM, then: exit code 0, and no process it started (restarted ones too) left running.
 * `atLeastPids` is how many started processes the output must already name.
 */
async function stopStack(stack: NodeProcess, folder: string, atLeastPids: number): Promise<void> {
  const pids = [...stack.output().matchAll(/\(pid (\d+)/g)].map((match) => Number(match[1]));
  expect(pids.length, stack.output()).toBeGreaterThanOrEqual(atLeastPids);
  const exit = await Promise.race([stack.stop(), sleep(STOP_WITHIN_MS, { code: -1, signal: null })]);
  expect(exit, stack.output()).toEqual({ code: 0, signal: null });
  running.delete(stack);
  expect(pids.filter(isAlive), stack.output()).toEqual([]);
  expect(processesMentioning(folder)).toEqual([]);
}

function redisUrl(settings: string): string {
  const url = /^REDIS_URL=(.+)$/m.exec(settings)?.[1];
  if (!url) throw new Error(`no REDIS_URL in devstack.env:\n${settings}`);
  return url;
}

async function withRedis<T>(url: string, use: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    return await use(redis);
  } finally {
    redis.disconnect();
  }
}

/** Polls `url` until it answers `status`; fails early when npm start exits, with its output. */
async function waitForStatus(url: string, status: number, stack: NodeProcess): Promise<void> {
  const answers = () =>
    fetch(url).then(
      async (response) => {
        await response.body?.cancel();
        return response.status === status;
      },
      () => false,
    );
  await waitWhileRunning(stack, answers, `${url} to answer ${status}`, READY_WITHIN_MS);
}

/** waitFor, failing early when npm start exits; either failure carries its output. */
async function waitWhileRunning<T>(
  stack: NodeProcess,
  check: () => Promise<T | undefined | false>,
  what: string,
  timeoutMs: number,
): Promise<T> {
  const { child, output } = stack;
  const checkWhileRunning = () => {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error('npm start exited early');
    return check();
  };
  return waitFor(checkWhileRunning, timeoutMs, 100).catch((error: Error) => {
    throw new Error(`waited for ${what} (${error.message}):\n${output()}`);
  });
}

/** Command lines of running processes that name the folder (postgres -D, the redis guard). */
function processesMentioning(folder: string): string[] {
  const table = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return table.split('\n').filter((line) => line.includes(folder) && !line.includes('ps -eo'));
}
