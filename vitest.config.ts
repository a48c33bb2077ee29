import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'services/*/test/**/*.test.ts', 'infra/test/**/*.test.ts'],
    globalSetup: ['packages/testkit/src/global-setup.ts'],
    // Files share worker processes: each already gets its own database, Redis prefix, bucket
    // and ports from testkit, so a fresh module graph per file bought nothing but start-up
    // time (packages/bench/README.md#test-runs).
    isolate: false,
    // Tests talk to real services and start real processes: allow for a loaded 2-core machine.
    // A test that starts a service waits up to SERVICE_READY_TIMEOUT_MS (testkit) for it, which
    // must stay below these, or a slow start ends as an anonymous timeout.
    testTimeout: 60_000,
    hookTimeout: 90_000,
    reporters: ['default', './packages/testkit/src/summary-reporter.ts'],
  },
});
