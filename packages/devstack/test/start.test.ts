import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { isAlive, spawnNode, waitFor, type NodeProcess } from '@switchboard/testkit';
import { freePort } from '../src/ports.ts';
import { REPO_ROOT } from '../src/paths.ts';

const START = join(REPO_ROOT, 'packages/devstack/src/start.ts');
// initdb alone takes seconds on a loaded 2-core machine.
const READY_WITHIN_MS = 120_000;
const STOP_WITHIN_MS = 30_000;

let stack: NodeProcess | undefined;
let dataDir: string | undefined;

afterAll(async () => {
  // Only reached with a live stack when an assertion failed: SIGKILL the supervisor, and its
  // children follow through their lifelines.
  await stack?.stop('SIGKILL');
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

describe('npm start', () => {
  it(
    'starts embedded stores and the gateway, serves discovery, and leaves nothing behind on SIGTERM',
    async () => {
      dataDir = await mkdtemp(join(tmpdir(), 'sb-devstack-'));
      // Run as root, PostgreSQL runs as the postgres user, which must be able to enter it.
      await chmod(dataDir, 0o755);
      const port = await freePort();
      // Deliberately no DATABASE_URL, REDIS_URL or S3_ENDPOINT: everything is embedded.
      const env = { HOME: process.env.HOME ?? dataDir, PORT: String(port), DEVSTACK_DATA_DIR: dataDir };
      const started = spawnNode(START, { cwd: REPO_ROOT, env });
      stack = started;

      await waitForStatus(`http://127.0.0.1:${port}/readyz`, 200, started);
      const discovery = await fetch(`http://127.0.0.1:${port}/v1/.well-known/service`);
      expect(discovery.status).toBe(200);
      expect(await discovery.json()).toHaveProperty('api_code_version');

      const envFile = join(dataDir, 'devstack.env');
      const settings = await readFile(envFile, 'utf8');
      expect(settings).toMatch(/^DATABASE_URL=postgres:\/\/.+@127\.0\.0\.1:\d+\/switchboard$/m);
      expect(settings).toMatch(/^REDIS_URL=redis:\/\/127\.0\.0\.1:\d+$/m);
      expect(settings).toMatch(/^S3_ENDPOINT=http:\/\/127\.0\.0\.1:\d+$/m);

      const output = started.output();
      const pids = [...output.matchAll(/\(pid (\d+)/g)].map((match) => Number(match[1]));
      // postgres, redis-server and the gateway at least.
      expect(pids.length, output).toBeGreaterThanOrEqual(3);
      expect(pids.every(isAlive)).toBe(true);

      const exit = await Promise.race([started.stop(), sleep(STOP_WITHIN_MS, { code: -1, signal: null })]);
      expect(exit, started.output()).toEqual({ code: 0, signal: null });
      expect(pids.filter(isAlive), started.output()).toEqual([]);
      expect(processesMentioning(dataDir)).toEqual([]);
      await expect(readFile(envFile, 'utf8')).rejects.toThrow(/ENOENT/);
    },
    READY_WITHIN_MS + STOP_WITHIN_MS + 30_000,
  );
});

/** Polls `url` until it answers `status`; fails early when npm start exits, with its output. */
async function waitForStatus(url: string, status: number, { child, output }: NodeProcess): Promise<void> {
  const answers = async () => {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error('npm start exited early');
    const answered = await fetch(url).then(
      (response) => response.status,
      () => 0,
    );
    return answered === status;
  };
  await waitFor(answers, READY_WITHIN_MS, 250).catch((error: Error) => {
    throw new Error(`${url} did not answer ${status} (${error.message}):\n${output()}`);
  });
}

/** Command lines of running processes that name the folder (postgres -D, the redis guard). */
function processesMentioning(folder: string): string[] {
  const table = execFileSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return table.split('\n').filter((line) => line.includes(folder) && !line.includes('ps -eo'));
}
