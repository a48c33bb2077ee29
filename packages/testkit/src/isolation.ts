import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrate } from '@switchboard/db';

/** A short random tag for names that must not collide between test files or runs. */
export function uniqueTag(): string {
  return randomBytes(5).toString('hex');
}

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function onAdminConnection<T>(serverUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  // A server-side disconnect must reject the query in flight, not crash the run.
  client.on('error', () => {});
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Builds a migrated template database once per run (global setup), named per run so that
 * concurrent runs on one server never touch each other's. Every test file then clones it,
 * which takes milliseconds instead of re-running migrations. Returns its name and a drop.
 */
export async function prepareTemplateDatabase(serverUrl: string): Promise<{ name: string; drop: () => Promise<void> }> {
  const name = `switchboard_template_${uniqueTag()}`;
  await onAdminConnection(serverUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const drop = () =>
    onAdminConnection(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(
      () => {},
    );
  try {
    await migrate(withDatabase(serverUrl, name));
  } catch (error) {
    await drop();
    throw error;
  }
  return { name, drop };
}

/**
 * A fresh database of its own for one test file, cloned from `template` (the run's migrated
 * template, see prepareTemplateDatabase; by default an empty database); `drop` removes it.
 */
export async function createTestDatabase(
  serverUrl: string,
  { template = 'template0' }: { template?: string } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `switchboard_test_${uniqueTag()}`;
  await onAdminConnection(serverUrl, async (client) => {
    // Two files cloning the template at the same instant can briefly collide; try again.
    for (let attempt = 0; ; attempt++) {
      try {
        await client.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
        return;
      } catch (error) {
        if (attempt >= 20 || !/being accessed by other users/.test((error as Error).message)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 100));
      }
    }
  });
  return {
    url: withDatabase(serverUrl, name),
    drop: () =>
      onAdminConnection(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(
        () => {},
      ),
  };
}
