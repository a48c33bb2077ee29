import { join } from 'node:path';
import type { CleanupStack } from './cleanup.ts';
import { REPO_ROOT, type BenchConfig } from './config.ts';
import { forkHelper, spawnService } from './processes.ts';
import { startBenchServices, type BenchServices } from './services.ts';
import type { BenchContext, CapturedResponse, LoadOptions } from './types.ts';

const GATEWAY_ENTRY = join(REPO_ROOT, 'services/gateway/src/main.ts');
const BASELINE_ENTRY = join(import.meta.dirname, 'baseline-server.ts');

export interface Harness {
  /** A context with `load`, whose processes are stopped by `cleanup` (run after that one benchmark). */
  contextFor(cleanup: CleanupStack, load: LoadOptions): BenchContext;
}

/**
 * Services (databases, Redis, S3) are resolved once, on first use, and stopped by
 * `sharedCleanup` at the end of the run; processes belong to one benchmark.
 */
export function createHarness(config: BenchConfig, sharedCleanup: CleanupStack): Harness {
  let services: Promise<BenchServices> | undefined;
  return {
    contextFor: (cleanup, load) =>
      benchContext(load, cleanup, () => (services ??= startBenchServices(config, sharedCleanup))),
  };
}

function benchContext(load: LoadOptions, cleanup: CleanupStack, services: () => Promise<BenchServices>): BenchContext {
  const log = (message: string) => process.stderr.write(`bench: ${message}\n`);

  const register = (name: string, stop: () => Promise<void>) => cleanup.defer(name, stop);

  return {
    load,
    cleanup,
    log,
    async startGateway(env = {}) {
      // As on a machine serving the gateway alone: one process per core (GATEWAY_PROCESSES=auto),
      // unless a benchmark says otherwise (delivery-latency runs the system as `npm start` does).
      const processEnv = (await services()).processEnv({
        SHUTDOWN_TIMEOUT_MS: '2000',
        GATEWAY_PROCESSES: 'auto',
        ...env,
      });
      log('starting the gateway');
      return spawnService({ name: 'gateway', entry: GATEWAY_ENTRY, env: processEnv }, register);
    },
    async serviceEnv() {
      return (await services()).processEnv();
    },
    async startStaticBaseline(response: CapturedResponse) {
      const message = {
        status: response.status,
        headers: response.headers,
        bodyBase64: response.body.toString('base64'),
      };
      return forkHelper('baseline', BASELINE_ENTRY, message, { NODE_ENV: 'production' }, register);
    },
  };
}
