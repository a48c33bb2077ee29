import { fileURLToPath } from 'node:url';
import { createPool } from '@switchboard/db';
import { waitForMessage, type Child } from '../child.ts';
import type { Supervisor } from '../supervisor.ts';
import { freePort } from '../ports.ts';
import { runnerReportSchema, type RunnerOptions } from './messages.ts';

const RUNNER = fileURLToPath(new URL('./runner.ts', import.meta.url));
const USER = 'postgres';
// A fixed development password: the server listens on loopback only and holds dev data.
const PASSWORD = 'switchboard';
const DATABASE = 'switchboard';

export interface EmbeddedPostgres {
  child: Child;
  url: string;
  pid: number;
}

/**
 * Starts (initialising on first use) the embedded server and makes sure the database exists.
 * `port`: the one to listen on (a restart on the port its clients know); a free one by default.
 */
export async function startEmbeddedPostgres(
  supervisor: Supervisor,
  dataDir: string,
  port?: number,
): Promise<EmbeddedPostgres> {
  port ??= await freePort();
  const child = supervisor.spawnStore({ name: 'postgres', command: process.execPath, args: [RUNNER] });
  const options: RunnerOptions = { type: 'start', dataDir, port, user: USER, password: PASSWORD };
  child.process.send(options);
  const report = await waitForMessage(child, (message) => {
    const parsed = runnerReportSchema.safeParse(message);
    return parsed.success ? parsed.data : undefined;
  });
  if (report.type === 'failed') throw new Error(`embedded PostgreSQL did not start: ${report.message}`);
  const server = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}`;
  await ensureDatabase(`${server}/postgres`, DATABASE);
  return { child, url: `${server}/${DATABASE}`, pid: report.pid };
}

async function ensureDatabase(maintenanceUrl: string, name: string): Promise<void> {
  const pool = createPool({ connectionString: maintenanceUrl, max: 1, applicationName: 'switchboard-devstack' });
  try {
    const { rowCount } = await pool.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (rowCount === 0) await pool.query(`CREATE DATABASE "${name}"`);
  } finally {
    await pool.end();
  }
}
