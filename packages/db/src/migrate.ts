import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createPool } from './pool.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations/', import.meta.url));
// Any constant works; it only has to be the same for every process that migrates this database.
const MIGRATION_LOCK_ID = 72_190_415;
const FILE_NAME = /^(\d{4})_[a-z0-9_]+\.sql$/;

export interface MigrationFile {
  version: string;
  name: string;
  sql: string;
  checksum: string;
}

export async function readMigrations(dir = MIGRATIONS_DIR): Promise<MigrationFile[]> {
  const names = (await readdir(dir)).filter((name) => name.endsWith('.sql')).sort();
  return Promise.all(
    names.map(async (name) => {
      const match = FILE_NAME.exec(name);
      if (!match) throw new Error(`migration file ${name} must be named NNNN_snake_case.sql`);
      // A path join, not a file:// URL: a directory name with spaces or `#` must still work.
      const sql = await readFile(join(dir, name), 'utf8');
      return { version: match[1]!, name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

/**
 * Applies every pending migration in order, each in its own transaction, under an advisory
 * lock so that replicas starting together migrate once. A landed migration whose file changed
 * is an error: migrations are never edited once landed.
 */
export async function migrate(connectionString: string, dir = MIGRATIONS_DIR): Promise<{ applied: string[] }> {
  const migrations = await readMigrations(dir);
  const pool = createPool({ connectionString, max: 1, applicationName: 'switchboard-migrate' });
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version text PRIMARY KEY,
      name text NOT NULL,
      checksum text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now())`);
    const { rows } = await client.query<{ version: string; name: string; checksum: string }>(
      'SELECT version, name, checksum FROM schema_migrations',
    );
    const landed = new Map(rows.map((row) => [row.version, row]));
    const applied: string[] = [];
    for (const migration of migrations) {
      const previous = landed.get(migration.version);
      if (previous) {
        if (previous.checksum !== migration.checksum) {
          throw new Error(`migration ${migration.name} was edited after it was applied (as ${previous.name})`);
        }
        continue;
      }
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query('INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)', [
          migration.version,
          migration.name,
          migration.checksum,
        ]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`migration ${migration.name} failed: ${(error as Error).message}`, { cause: error });
      }
      applied.push(migration.name);
    }
    return { applied };
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {});
    client.release();
    await pool.end();
  }
}
