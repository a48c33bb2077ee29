import { HeadBucketCommand } from '@aws-sdk/client-s3';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { useTestEnvironment } from '../src/environment.ts';
import { storageFor } from '../src/storage.ts';

const environment = useTestEnvironment();

describe('test environment', () => {
  it('gives the file a migrated database of its own', async () => {
    const client = new pg.Client({ connectionString: environment.databaseUrl });
    await client.connect();
    const { rows } = await client.query<{ count: string }>('SELECT count(*) FROM schema_migrations');
    const { rows: db } = await client.query<{ name: string }>('SELECT current_database() AS name');
    await client.end();
    expect(Number(rows[0]!.count)).toBeGreaterThan(0);
    expect(db[0]!.name).toMatch(/^switchboard_test_/);
  });

  it('gives the file a bucket of its own', async () => {
    const storage = storageFor(environment);
    await expect(storage.client.send(new HeadBucketCommand({ Bucket: environment.s3.bucket }))).resolves.toBeDefined();
    storage.close();
  });
});
