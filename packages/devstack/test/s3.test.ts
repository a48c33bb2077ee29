import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStorage, keyedStoreOptions, type Storage } from '@switchboard/storage';
import { startEmbeddedS3, type EmbeddedS3 } from '../src/s3.ts';

let dir: string;
let s3: EmbeddedS3;
let storage: Storage;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'devstack-s3-'));
  s3 = await startEmbeddedS3({ dir, buckets: ['race'] });
  storage = createStorage(keyedStoreOptions({ ...s3, region: 'us-east-1', bucket: 'race' }));
});

afterAll(async () => {
  storage?.close();
  await s3?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('the embedded S3 store', () => {
  it('survives uploads into a folder while its last object is being deleted', async () => {
    // The webhook worker deletes a stored body while the gateway stores the next one beside it.
    await storage.upload('bodies/hook/0.json', '{}', { contentType: 'application/json' });
    for (let round = 1; round <= 100; round += 1) {
      const [uploaded] = await Promise.all([
        storage.upload(`bodies/hook/${round}.json`, '{}', { contentType: 'application/json' }),
        storage.deleteObjects([`bodies/hook/${round - 1}.json`]),
      ]);
      expect(uploaded.size).toBe(2);
    }
    expect(await storage.headObject('bodies/hook/100.json')).not.toBeNull();
    expect(await storage.headObject('bodies/hook/99.json')).toBeNull();
  });
});
