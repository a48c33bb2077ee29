import { ListObjectsCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storageFor } from '@switchboard/testkit/storage';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import type { Storage } from '../src/index.ts';
import { recordCommands } from './support/store.ts';

const environment = useTestEnvironment();
let storage: Storage;

beforeAll(() => {
  storage = storageFor(environment);
});
afterAll(() => storage.close());

/** Creates `count` one-byte objects under `prefix`, a few requests at a time. */
async function createObjects(prefix: string, count: number): Promise<string[]> {
  const keys = Array.from({ length: count }, (_, index) => `${prefix}${String(index).padStart(5, '0')}`);
  const pending = [...keys];
  const worker = async () => {
    for (let key = pending.pop(); key !== undefined; key = pending.pop()) {
      await storage.client.send(new PutObjectCommand({ Bucket: storage.bucket, Key: key, Body: 'x' }));
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return keys;
}

/** Every key under a prefix (v1 listing: see deletePrefix for why not v2). */
async function listKeys(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for (;;) {
    const page = await storage.client.send(
      new ListObjectsCommand({ Bucket: storage.bucket, Prefix: prefix, Marker: keys.at(-1) }),
    );
    keys.push(...(page.Contents ?? []).map((object) => object.Key ?? ''));
    if (!page.IsTruncated || !page.Contents?.length) return keys;
  }
}

describe('batch delete', () => {
  it('deletes more than 1000 keys in batches, and again harmlessly', async () => {
    const keys = await createObjects('bulk/', 1100); // two batches: 1000 + 100
    const neighbour = await createObjects('bulkier/', 1);
    const missing = ['bulk/never-existed'];
    const deleter = storageFor(environment);
    const commands = recordCommands(deleter);
    const first = await deleter.deleteObjects([...keys, ...missing, keys[0]!]);
    deleter.close();
    // s3rver would take any number of keys in one request; S3 refuses more than 1000.
    const batchSizes = commands.map((command) => (command.input.Delete as { Objects: unknown[] }).Objects.length);
    expect(batchSizes).toEqual([1000, 101]);
    expect(first.errors).toEqual([]);
    expect(first.deleted.toSorted()).toEqual([...keys, ...missing].toSorted());
    expect(await listKeys('bulk/')).toEqual([]);
    expect(await listKeys('bulkier/')).toEqual(neighbour);

    const again = await storage.deleteObjects(keys);
    expect(again).toEqual({ deleted: keys, errors: [] });
  });

  it('deletes everything under a prefix across listing pages, and nothing else', async () => {
    const keys = await createObjects('guilds/1/', 1001);
    const kept = [...(await createObjects('guilds/10/', 2)), ...(await createObjects('guilds/2/', 2))];
    const result = await storage.deletePrefix('guilds/1/');
    expect(result.errors).toEqual([]);
    expect(result.deleted.toSorted()).toEqual(keys);
    expect(await listKeys('guilds/')).toEqual(kept.toSorted());
    expect(await storage.deletePrefix('guilds/1/')).toEqual({ deleted: [], errors: [] });
  });

  it('does nothing for no keys and refuses an empty prefix', async () => {
    expect(await storage.deleteObjects([])).toEqual({ deleted: [], errors: [] });
    await expect(storage.deletePrefix('')).rejects.toThrow(/non-empty prefix/);
  });
});
