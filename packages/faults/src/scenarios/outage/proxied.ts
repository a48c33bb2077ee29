import { startFaultProxy, type FaultProxy, type TestEnvironment } from '@switchboard/testkit';

export type Dependency = 'postgres' | 'redis' | 's3';

/** The variable through which our processes find each dependency. */
const VARIABLE: Record<Dependency, string> = { postgres: 'DATABASE_URL', redis: 'REDIS_URL', s3: 'S3_ENDPOINT' };

const DEFAULT_PORTS: Record<string, number> = { 'postgres:': 5432, 'postgresql:': 5432, 'redis:': 6379, 'rediss:': 6379, 'http:': 80, 'https:': 443 };

function hostAndPort(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  const port = parsed.port ? Number(parsed.port) : DEFAULT_PORTS[parsed.protocol];
  if (port === undefined) throw new Error(`no default port for ${parsed.protocol}`);
  return { host: parsed.hostname.replace(/^\[(.*)\]$/, '$1'), port };
}

export interface ProxiedEnvironment {
  proxy: FaultProxy;
  /** The scenario's variables with `dependency` reached through the proxy. */
  processEnv(extra?: Record<string, string>): Record<string, string>;
}

/** A fault proxy in front of one dependency of the scenario; the processes given processEnv see its faults. */
export async function proxyDependency(environment: TestEnvironment, dependency: Dependency): Promise<ProxiedEnvironment> {
  const variable = VARIABLE[dependency];
  const url = environment.processEnv()[variable]!;
  const proxy = await startFaultProxy(hostAndPort(url));
  return { proxy, processEnv: (extra = {}) => ({ ...environment.processEnv(extra), [variable]: proxy.urlFor(url) }) };
}
