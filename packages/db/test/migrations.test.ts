import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase } from '@switchboard/testkit/isolation';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { migrate, readMigrations } from '../src/index.ts';

const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations/', import.meta.url));
const drops: Array<() => Promise<void>> = [];

async function emptyDatabase(): Promise<string> {
  const database = await createTestDatabase(inject('services').databaseUrl);
  drops.push(database.drop);
  return database.url;
}

async function query<T extends pg.QueryResultRow>(url: string, sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

afterAll(async () => {
  for (const drop of drops) await drop();
});

describe('migrate', () => {
  it('builds the schema from scratch, in file order, and a re-run applies nothing', async () => {
    const url = await emptyDatabase();
    const files = await readMigrations();
    expect(files.length).toBeGreaterThanOrEqual(3);
    const first = await migrate(url);
    expect(first.applied).toEqual(files.map((file) => file.name));
    const tables = await query<{ name: string }>(
      url,
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'",
    );
    expect(tables.map((t) => t.name)).toEqual(
      expect.arrayContaining([
        'users',
        'user_tokens',
        'guilds',
        'channels',
        'roles',
        'members',
        'messages',
        'emojis',
        'stickers',
        'guild_assets',
        'webhooks',
        'admin_users',
        'admin_api_keys',
        'email_bans',
        'phone_bans',
        'ip_bans',
        'audit_logs',
        'archives',
        'asset_purges',
        'bulk_operations',
      ]),
    );
    expect(await migrate(url)).toEqual({ applied: [] });
    const landed = await query<{ count: number }>(url, 'SELECT count(*)::int AS count FROM schema_migrations');
    expect(landed[0]!.count).toBe(files.length);
  });

  it('refuses to run when a landed migration was edited', async () => {
    const url = await emptyDatabase();
    const dir = await mkdtemp(join(tmpdir(), 'sb-migrations-'));
    try {
      await cp(MIGRATIONS_DIR, dir, { recursive: true });
      await migrate(url, dir);
      const [first] = await readMigrations(dir);
      const path = join(dir, first!.name);
      await writeFile(path, `${await readFile(path, 'utf8')}\n-- edited\n`);
      await expect(migrate(url, dir)).rejects.toThrow(/was edited after it was applied/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('rolls back a failing migration and applies nothing of it', async () => {
    const url = await emptyDatabase();
    const dir = await mkdtemp(join(tmpdir(), 'sb-migrations-'));
    try {
      await writeFile(join(dir, '0001_good.sql'), 'CREATE TABLE good (id int);');
      await writeFile(join(dir, '0002_bad.sql'), 'CREATE TABLE half (id int); SELECT no_such_function();');
      await expect(migrate(url, dir)).rejects.toThrow(/0002_bad\.sql failed/);
      const tables = await query<{ name: string }>(
        url,
        "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1",
      );
      expect(tables.map((t) => t.name)).toEqual(['good', 'schema_migrations']);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('lets two processes migrate at once: both succeed, the work is done once', async () => {
    const url = await emptyDatabase();
    const files = await readMigrations();
    const [a, b] = await Promise.all([migrate(url), migrate(url)]);
    const applied = [...a.applied, ...b.applied].sort();
    expect(applied).toEqual(files.map((file) => file.name).sort());
    expect([a.applied.length, b.applied.length].sort()).toEqual([0, files.length]);
  });
});
