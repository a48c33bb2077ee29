// testkit declares this augmentation in its global-setup.ts, which a package's own type-check
// does not include; repeated here so `tsc -p packages/storage` sees testkit's inject() typed.
import type { TestServices } from '@switchboard/testkit';

declare module 'vitest' {
  export interface ProvidedContext {
    services: TestServices;
  }
}
