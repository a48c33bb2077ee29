import { afterAll, beforeAll } from 'vitest';
import { type OwnedStore, type StoreKind, startOwnedStore } from './index.ts';

/**
 * A store of the tests' own (one they may freeze, kill and restart), started before the tests
 * of the enclosing describe block and stopped after them. Call it at the block's top level; the
 * store is there once the tests run.
 */
export function useOwnedStore(kind: StoreKind): () => OwnedStore {
  let store: OwnedStore | undefined;
  beforeAll(async () => {
    store = await startOwnedStore(kind);
  }, 60_000);
  afterAll(async () => {
    await store?.stop();
  });
  return () => {
    if (!store) throw new Error(`the owned ${kind} is not started: call useOwnedStore at a describe block's top level`);
    return store;
  };
}
