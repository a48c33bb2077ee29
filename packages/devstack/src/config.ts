import { env, s3Schema, z } from '@switchboard/config';
import { DEFAULT_RESTART_BACKOFF } from './restart-backoff.ts';

/**
 * What `npm start` reads. A backing service named here is used as is; one left unset is
 * started embedded. Every other variable (PORT, LOG_LEVEL, the gateway's own settings, …)
 * passes through untouched to the processes the stack starts, hence the loose object.
 */
export const devstackSchema = z
  .looseObject({
    DATABASE_URL: env.url(['postgres', 'postgresql']).optional(),
    /** PostgreSQL itself when DATABASE_URL is a transaction pooler: migrations take a session lock. */
    DATABASE_DIRECT_URL: env.url(['postgres', 'postgresql']).optional(),
    REDIS_URL: env.url(['redis', 'rediss']).optional(),
    ...s3Schema.shape,
    /**
     * The gateway's processes (its GATEWAY_PROCESSES, checked there): `npm start` runs the whole
     * system on this machine, so unless named here the gateway takes one process per two cores
     * (`shared`) and leaves the others to the workers and the stores.
     */
    GATEWAY_PROCESSES: z.string().min(1).default('shared'),
    /** The gateway's HTTP port and bind address; the stack only reads them to reach /readyz. */
    PORT: env.int(1, 65_535).default(8080),
    HOST: z.string().min(1).optional(),
    /** Where embedded stores keep their data and where devstack.env is written; default `<repo>/.data`. */
    DEVSTACK_DATA_DIR: z.string().min(1).optional(),
    /** How long a process gets to exit after SIGTERM before it is killed. */
    DEVSTACK_STOP_TIMEOUT_MS: env.int(100, 600_000).default(10_000),
    /** How long the gateway gets to answer /readyz with 200 after it is spawned. */
    DEVSTACK_READY_TIMEOUT_MS: env.int(1_000, 600_000).default(120_000),
    /** A crashed gateway or worker is restarted after this delay, doubled after each further crash… */
    DEVSTACK_RESTART_INITIAL_DELAY_MS: env.int(10, 60_000).default(DEFAULT_RESTART_BACKOFF.initialDelayMs),
    /** …up to this delay… */
    DEVSTACK_RESTART_MAX_DELAY_MS: env.int(10, 600_000).default(DEFAULT_RESTART_BACKOFF.maxDelayMs),
    /** …and back to the first delay once a run has lasted this long. */
    DEVSTACK_RESTART_RESET_AFTER_MS: env.int(100, 3_600_000).default(DEFAULT_RESTART_BACKOFF.resetAfterMs),
    /** https://no-color.org: any non-empty value turns colours off. */
    NO_COLOR: z.string().optional(),
    PATH: z.string().default(''),
  })
  .refine((config) => config.DEVSTACK_RESTART_MAX_DELAY_MS >= config.DEVSTACK_RESTART_INITIAL_DELAY_MS, {
    path: ['DEVSTACK_RESTART_MAX_DELAY_MS'],
    message: 'must be at least DEVSTACK_RESTART_INITIAL_DELAY_MS',
  });

export type DevstackConfig = z.infer<typeof devstackSchema>;

/** The configuration as plain environment strings, to hand to child processes. */
export function passThroughEnv(config: DevstackConfig): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(config)) {
    if (name.startsWith('DEVSTACK_')) continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') {
      result[name] = String(value);
    }
  }
  return result;
}
