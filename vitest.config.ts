import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'services/*/test/**/*.test.ts'],
    globalSetup: ['packages/testkit/src/global-setup.ts'],
    // Tests talk to real services and start real processes: allow for a loaded 2-core machine.
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', './packages/testkit/src/summary-reporter.ts'],
  },
});
