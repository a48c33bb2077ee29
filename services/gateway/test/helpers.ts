import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll } from 'vitest';
import { createPool, type Pool } from '@switchboard/db';
import { createLogger } from '@switchboard/logger';
import { closeRedis, createRedis } from '@switchboard/redis';
import { createStorage, storageOptionsFromConfig, type Storage } from '@switchboard/storage';
import { serveOnFreePort, spawnNode, type NodeProcess, type TestEnvironment } from '@switchboard/testkit';
import { createApp, parseGatewayConfig, type GatewayConfig } from '../src/index.ts';

// Kept for the ip-ban tests, which take them from here.
export { closedPort, silentServer } from '@switchboard/testkit';

export const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface RunningGateway {
  url: string;
  config: GatewayConfig;
  pool: Pool;
  redis: Redis;
  storage: Storage;
  close(): Promise<void>;
}

export function gatewayConfig(environment: TestEnvironment, extra: Record<string, string> = {}): GatewayConfig {
  const parsed = parseGatewayConfig(environment.processEnv(extra));
  if (!parsed.ok) throw new Error(`bad test configuration: ${parsed.problems.join('; ')}`);
  return parsed.config;
}

/** A real gateway (createApp) on this file's PostgreSQL, Redis and bucket, on an ephemeral port. */
export async function startGateway(environment: TestEnvironment, extra: Record<string, string> = {}): Promise<RunningGateway> {
  const config = gatewayConfig(environment, extra);
  const pool = createPool({ connectionString: config.DATABASE_URL, max: 2 });
  const redis = createRedis(config.REDIS_URL, { role: 'client' });
  await once(redis, 'ready');
  const storage = createStorage(storageOptionsFromConfig(config));
  const logger = createLogger('gateway-test', 'silent');
  const served = await serveOnFreePort(createApp({ config, logger, pool, redis, storage }));
  return {
    url: served.url,
    config,
    pool,
    redis,
    storage,
    close: async () => {
      await served.close();
      await Promise.all([pool.end(), closeRedis(redis)]);
      storage.close();
    },
  };
}

/**
 * Call at the top of a test file, after useTestEnvironment(): a gateway started before the
 * file's first test and closed after its last. As with the environment, the returned object is
 * filled in when the gateway is up, so hooks registered after this call can use it.
 */
export function useGateway(environment: TestEnvironment, extra: Record<string, string> = {}): RunningGateway {
  const gateway = {} as RunningGateway;
  beforeAll(async () => {
    Object.assign(gateway, await startGateway(environment, extra));
  });
  afterAll(async () => {
    await gateway.close?.();
  });
  return gateway;
}

let nextAddress = 1;
/**
 * A client address of its own (sent as X-Forwarded-For to a gateway trusting one proxy hop),
 * so that tests do not share rate-limit budgets.
 */
export function uniqueClient(): Record<string, string> {
  const n = nextAddress++;
  return { 'X-Forwarded-For': `203.0.${Math.floor(n / 250) % 256}.${(n % 250) + 1}` };
}

/** A spawned gateway; `exit` resolves with its exit code. */
export type SpawnedGateway = Omit<NodeProcess, 'exit'> & { exit: Promise<number | null> };

/** `node services/gateway/src/main.ts` with exactly `env` (plus PATH). */
export function spawnGateway(env: Record<string, string>): SpawnedGateway {
  const gateway = spawnNode(MAIN, { cwd: REPO_ROOT, env });
  return { ...gateway, exit: gateway.exit.then(({ code }) => code) };
}

/** Resolves with the port once the spawned gateway logs that it listens. */
export async function listeningPort(gateway: SpawnedGateway, timeoutMs = 15_000): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const line of gateway.stdout().split('\n')) {
      if (!line.startsWith('{')) continue;
      const entry = JSON.parse(line) as { msg?: string; port?: number };
      if (entry.msg === 'gateway listening' && typeof entry.port === 'number') return entry.port;
    }
    if (gateway.child.exitCode !== null) throw new Error(`gateway exited: ${gateway.stderr()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('gateway did not start listening in time');
}

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

export interface Call {
  /** Sent as `Authorization: <scheme> <token>`, or the bare token when scheme is ''. */
  token?: string;
  scheme?: 'Admin' | 'Bot' | 'Bearer' | '';
  body?: unknown;
  headers?: Record<string, string>;
}

/** One HTTP call; a JSON body is sent when given, and a JSON answer is parsed. */
export async function call(baseUrl: string, method: string, path: string, options: Call = {}): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token !== undefined) {
    const scheme = options.scheme ?? '';
    headers['authorization'] = scheme === '' ? options.token : `${scheme} ${options.token}`;
  }
  let body: string | undefined;
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text === '' ? undefined : JSON.parse(text) };
}
