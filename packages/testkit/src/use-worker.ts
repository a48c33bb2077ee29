import { afterAll, afterEach, beforeAll } from 'vitest';
import type { TestEnvironment } from './environment.ts';
import { QUICK_TAKEOVER } from './operations.ts';
import { spawnService, type ServiceProcess } from './processes.ts';

export interface RunningWorker {
  /** SIGKILLs the current process. */
  kill(): Promise<unknown>;
  /** Starts a new process in its place (after a kill). */
  restart(): Promise<unknown>;
}

/**
 * Call at the top of a test file: worker service `service` on the file's stores from before
 * the first test to after the last, with quick job takeover and `env`.
 */
export function useWorker(
  environment: TestEnvironment,
  service: string,
  env: Record<string, string> = {},
): RunningWorker {
  let current: ServiceProcess | undefined;
  const start = async () =>
    (current = await spawnService(service, environment.processEnv({ ...QUICK_TAKEOVER, ...env })));
  beforeAll(start);
  afterAll(async () => {
    await current?.stop();
  });
  return { kill: () => current!.stop('SIGKILL'), restart: start };
}

/**
 * Call at the top of a test file: the returned function starts worker service `service` on the
 * file's stores with `env` and its `extra`; every process a test started is stopped after that
 * test, with `signal` (SIGKILL where a test leaves work mid-flight) or else gracefully.
 */
export function useWorkersPerTest(
  environment: TestEnvironment,
  service: string,
  { env = {}, signal }: { env?: Record<string, string>; signal?: NodeJS.Signals } = {},
): (extra?: Record<string, string>) => Promise<ServiceProcess> {
  const started: ServiceProcess[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((running) => running.stop(signal)));
  });
  return async (extra = {}) => {
    const running = await spawnService(service, environment.processEnv({ ...env, ...extra }));
    started.push(running);
    return running;
  };
}
