import { createStorage, keyedStoreOptions, type Storage, type StorageBounds } from '@switchboard/storage';
import type { TestEnvironment } from './environment.ts';

/**
 * A Storage on the test file's own bucket (or on `bucket` of the same store), with the
 * services' default bounds unless `bounds` says otherwise; close it when done.
 */
export function storageFor(
  environment: TestEnvironment,
  bucket = environment.s3.bucket,
  bounds?: StorageBounds,
): Storage {
  return createStorage({ ...keyedStoreOptions({ ...environment.s3, bucket }), ...(bounds ? { bounds } : {}) });
}

/** Whether each key has an object in the bucket. */
export const storedObjects = async (storage: Storage, keys: string[]): Promise<boolean[]> =>
  (await Promise.all(keys.map((key) => storage.headObject(key)))).map((head) => head !== null);
