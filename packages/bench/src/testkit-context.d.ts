// testkit declares its vitest ProvidedContext augmentation in global-setup.ts, which this
// package's type-check would not otherwise include; referenced (not copied) so it stays in step.
/// <reference path="../../testkit/src/global-setup.ts" />
