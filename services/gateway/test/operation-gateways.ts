import { useWorker } from '@switchboard/testkit/use-worker';
import type { TestEnvironment } from '@switchboard/testkit/environment';
import { useGateway, type RunningGateway } from './helpers.ts';

export interface OperationGateways {
  /** Waits for an operation as long as a client's request may (ADMIN_JOB_WAIT_MS), then answers. */
  gateway: RunningGateway;
  /** Answers 202 at once: the operation outlives the request, as a large one does. */
  impatient: RunningGateway;
}

/**
 * Call at the top of a file that runs admin operations (asset purge, bulk add) end to end: the
 * two gateways, then the real worker `services` that run the operations, on the file's stores.
 * Rate limits are off: these files test outcomes, not budgets. `extra` goes to `gateway` only.
 */
export function useOperationGateways(
  environment: TestEnvironment,
  services: readonly string[],
  extra: Record<string, string> = {},
): OperationGateways {
  const gateway = useGateway(environment, { RATE_LIMITS_ENABLED: 'false', ...extra });
  const impatient = useGateway(environment, { RATE_LIMITS_ENABLED: 'false', ADMIN_JOB_WAIT_MS: '0' });
  for (const service of services) useWorker(environment, service);
  return { gateway, impatient };
}
