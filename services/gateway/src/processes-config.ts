import { availableParallelism } from 'node:os';
import { commonSchema, env, loadConfig, z } from '@switchboard/config';

/**
 * A gateway process per core leaves none for the workers that store what it accepts: with the
 * webhook worker, PostgreSQL and Redis on the same two cores, one process cut the accepted →
 * stored tail against two (packages/bench/README.md#gateway-processes).
 */
function gatewayProcesses(count: number | 'auto' | 'shared'): number {
  if (count === 'auto') return availableParallelism();
  if (count === 'shared') return Math.max(1, Math.floor(availableParallelism() / 2));
  return count;
}

/**
 * The variables that decide how the gateway runs its processes: all the primary of several
 * reads (processes.ts), so that it loads none of the modules the gateway's full configuration
 * does. Every process that serves parses them again with the rest (config.ts).
 */
export const processesConfigShape = {
  LOG_LEVEL: commonSchema.shape.LOG_LEVEL,
  /** How long in-flight requests may run after SIGTERM before connections are cut. */
  SHUTDOWN_TIMEOUT_MS: env.int(0, 600_000).default(10_000),
  /**
   * Gateway processes serving PORT together (node:cluster), each a whole replica. One event
   * loop is the limit of one process, not of the machine (processes.ts). `auto`: one per core,
   * for a machine that serves the gateway alone. `shared`: one per two cores (at least one),
   * for a machine whose workers and stores share the cores (`npm start`, compose).
   */
  GATEWAY_PROCESSES: z
    .union([z.literal('auto'), z.literal('shared'), env.int(1, 256)])
    .default(1)
    .transform(gatewayProcesses),
};

const processesConfigSchema = z.object(processesConfigShape);

export type ProcessesConfig = z.infer<typeof processesConfigSchema>;

/** Parses the environment, or prints every bad variable and exits non-zero. */
export function loadProcessesConfig(environment: Record<string, string | undefined> = process.env): ProcessesConfig {
  return loadConfig(processesConfigSchema, environment, 'gateway');
}
