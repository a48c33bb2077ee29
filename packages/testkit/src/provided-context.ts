import type { TestServices } from './services/index.ts';

// What global setup hands every test file through vitest's provide/inject. Declared in a module
// that index.ts imports, so any package whose tests import the testkit sees the types.
declare module 'vitest' {
  export interface ProvidedContext {
    services: TestServices;
    /** The run's migrated template database, cloned by every test file. */
    templateDatabase: string;
  }
}
