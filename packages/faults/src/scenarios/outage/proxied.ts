import { startFaultProxy, type FaultMode } from '@switchboard/testkit/fault-proxy';
import type { TestEnvironment } from '@switchboard/testkit/environment';
import type { ScenarioContext } from '../../types.ts';

export type Dependency = 'postgres' | 'redis' | 's3';

/**
 * How one outage is made: the environment the scenario observes directly, the variables its
 * processes get (perhaps through a proxy), and what starts and ends the fault.
 */
export interface FaultSetup {
  environment: TestEnvironment;
  processEnv(extra?: Record<string, string>): Record<string, string>;
  begin(): Promise<void>;
  end(): Promise<void>;
  /** The fault column: what was done, for how long. */
  describe(outageMs: number): string;
  close(): Promise<void>;
}

/** The variable through which our processes find each dependency. */
const VARIABLE: Record<Dependency, string> = { postgres: 'DATABASE_URL', redis: 'REDIS_URL', s3: 'S3_ENDPOINT' };

const DEFAULT_PORTS: Record<string, number> = {
  'postgres:': 5432,
  'postgresql:': 5432,
  'redis:': 6379,
  'rediss:': 6379,
  'http:': 80,
  'https:': 443,
};

function hostAndPort(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  const port = parsed.port ? Number(parsed.port) : DEFAULT_PORTS[parsed.protocol];
  if (port === undefined) throw new Error(`no default port for ${parsed.protocol}`);
  return { host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'), port };
}

/**
 * A fault proxy in front of one dependency of the scenario's environment: the processes given
 * processEnv reach it through the proxy and see its `mode` while the fault lasts.
 */
export async function proxiedFault(
  { environment }: ScenarioContext,
  dependency: Dependency,
  mode: Exclude<FaultMode, 'pass'>,
): Promise<FaultSetup> {
  const variable = VARIABLE[dependency];
  const url = environment.processEnv()[variable]!;
  const proxy = await startFaultProxy(hostAndPort(url));
  return {
    environment,
    processEnv: (extra = {}) => ({ ...environment.processEnv(extra), [variable]: proxy.urlFor(url) }),
    begin: async () => proxy.setMode(mode),
    end: async () => proxy.setMode('pass'),
    describe: (outageMs) =>
      `${dependency} ${mode === 'cut' ? 'stopped (connections reset)' : 'blackholed'} ${outageMs / 1000} s, through a fault proxy`,
    close: () => proxy.close(),
  };
}
