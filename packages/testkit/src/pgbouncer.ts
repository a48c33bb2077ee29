import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@switchboard/devstack';
import { waitFor } from './wait.ts';

/**
 * Set by `npm test`'s pooled pass: a PgBouncer in transaction mode in front of the run's
 * PostgreSQL (its URL; the database name is the file's own), which the processes tests start
 * then reach the database through (processEnv).
 */
export const TEST_POOLER_VARIABLE = 'SWITCHBOARD_TEST_POOLER_URL';

export interface RunningPgBouncer {
  /** `databaseUrl` with its host and port replaced by PgBouncer's. */
  urlFor(databaseUrl: string): string;
  output(): string;
  stop(): Promise<void>;
}

/** Where Debian installs it; else PATH. */
const BINARIES = ['/usr/sbin/pgbouncer', 'pgbouncer'];

/**
 * A real PgBouncer in front of the PostgreSQL of `databaseUrl`, in transaction pooling mode,
 * any database name passed through (`* =`), no authentication of its own, logging in to the
 * server as the URL's user with its password, on a free loopback port, its files in a temporary folder. Started as the
 * `postgres` user when this process is root: PgBouncer refuses to run as root.
 */
export async function startPgBouncer(
  databaseUrl: string,
  mode: 'transaction' | 'session' = 'transaction',
): Promise<RunningPgBouncer> {
  const target = new URL(databaseUrl);
  const folder = await mkdtemp(join(tmpdir(), 'sb-pgbouncer-'));
  await chmod(folder, 0o777);
  const port = await freePort();
  const ini = join(folder, 'pgbouncer.ini');
  await writeFile(
    ini,
    [
      '[databases]',
      `* = host=${target.hostname} port=${target.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      `unix_socket_dir = ${folder}`,
      'auth_type = trust',
      `auth_file = ${join(folder, 'userlist.txt')}`,
      `pool_mode = ${mode}`,
      'max_client_conn = 500',
      'default_pool_size = 20',
      // What node-pg sends at connect besides the tracked parameters.
      'ignore_startup_parameters = extra_float_digits',
      `logfile = ${join(folder, 'pgbouncer.log')}`,
      '',
    ].join('\n'),
  );
  // Clients are trusted; PgBouncer logs in to the server with this password (the embedded
  // server asks for one, by SCRAM, which needs it in plain text here).
  const user = decodeURIComponent(target.username || 'postgres');
  await writeFile(join(folder, 'userlist.txt'), `"${user}" "${decodeURIComponent(target.password)}"\n`);
  await chmod(join(folder, 'userlist.txt'), 0o600);
  await chmod(ini, 0o644);
  const binary = await firstRunnable();
  const asRoot = process.getuid?.() === 0;
  const child: ChildProcess = spawn(binary, [...(asRoot ? ['-u', 'postgres'] : []), ini], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit');
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    await rm(folder, { recursive: true, force: true });
  };
  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`pgbouncer exited (${child.exitCode}): ${output}`);
        return accepts(port);
      },
      10_000,
      50,
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    urlFor: (url) => {
      const through = new URL(url);
      through.hostname = '127.0.0.1';
      through.port = String(port);
      return through.toString();
    },
    output: () => output,
    stop,
  };
}

async function firstRunnable(): Promise<string> {
  for (const candidate of BINARIES) {
    const works = await new Promise<boolean>((resolve) => {
      const probe = spawn(candidate, ['--version'], { stdio: 'ignore' });
      probe.once('error', () => resolve(false));
      probe.once('exit', (code) => resolve(code === 0));
    });
    if (works) return candidate;
  }
  throw new Error('pgbouncer is not installed: install the Debian package "pgbouncer" (CI does).');
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
