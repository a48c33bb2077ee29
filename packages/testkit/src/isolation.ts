import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { migrate } from '@switchboard/db';

const TEMPLATE_DATABASE = 'switchboard_test_template';

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
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Builds the migrated template database once per run (global setup). Every test file then
 * clones it, which takes milliseconds instead of re-running migrations.
 */
export async function prepareTemplateDatabase(serverUrl: string): Promise<void> {
  await onAdminConnection(serverUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${TEMPLATE_DATABASE}`);
  });
  await migrate(withDatabase(serverUrl, TEMPLATE_DATABASE));
}

/**
 * A fresh, migrated database of its own for one test file; `drop` removes it. Also usable
 * for an empty database (`{ migrated: false }`) to test migrations themselves.
 */
export async function createTestDatabase(
  serverUrl: string,
  { migrated = true }: { migrated?: boolean } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `switchboard_test_${uniqueTag()}`;
  await onAdminConnection(serverUrl, async (client) => {
    const template = migrated ? TEMPLATE_DATABASE : 'template0';
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
    drop: () => onAdminConnection(serverUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => {}),
  };
}
