import { setTimeout as sleep } from 'node:timers/promises';
import { createAdminWithKey } from '@switchboard/auth';
import { createPool, type Pool } from '@switchboard/db';
import { createSnowflakeGenerator } from '@switchboard/snowflake';
import { processTreeMemoryMiB } from '@switchboard/testkit/processes';
import { formatMachineCpu, type MachineCpu } from '../../machine-cpu.ts';
import {
  measure,
  measureWithCpu,
  ratio,
  STEADY_STATE_WARMUP_SECONDS,
  withSteadyStateWarmup,
  type Measurement,
} from '../../measure.ts';
import type { RunningService } from '../../processes.ts';
import type { BenchContext, Benchmark, CapturedResponse, TargetResult } from '../../types.ts';
import { BANNED_ADDRESS, FREE_ADDRESS, seedIpBans, type BanSeed } from './seed.ts';

export const CHECK_PATH = '/v1/admin/bans/ip/check';
const DISCOVERY_PATH = '/v1/.well-known/service';
const SEED: BanSeed = { ipv4Singles: 900_000, ipv6Singles: 100_000, ipv4Ranges: 100_000 };
const LOAD_DEADLINE_MS = 180_000;
/** Set by Node on every response; copying them would send them twice. */
const NODE_OWNED_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);
/** Many requests a second from one admin: the admin:ban:operation bucket (60/min) would answer 429. */
export const BAN_CHECK_GATEWAY_ENV = { RATE_LIMITS_ENABLED: 'false', IP_BANS_LOAD_WAIT_MS: '1000' };

async function withPool<T>(databaseUrl: string, work: (pool: Pool) => Promise<T>): Promise<T> {
  const pool = createPool({ connectionString: databaseUrl, max: 1, applicationName: 'bench-ban-check' });
  try {
    return await work(pool);
  } finally {
    await pool.end();
  }
}

/** An admin key allowed to check IP bans, and the SEED bans (how many were seeded). */
export function seedBanCheck(
  databaseUrl: string,
  log: (message: string) => void,
): Promise<{ key: string; seeded: number }> {
  return withPool(databaseUrl, async (pool) => {
    const { key } = await createAdminWithKey(pool, createSnowflakeGenerator(1001), {
      name: 'bench-ban-checker',
      acls: ['admin:authenticate', 'ban:ip:check'],
    });
    return { key, seeded: await seedIpBans(pool, SEED, log) };
  });
}

async function post(url: string, key: string, body: unknown): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { authorization: `Admin ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

/** Polls the check route until the gateway answers it (503 while the bans still load); milliseconds waited. */
export async function untilLoaded(gateway: RunningService, key: string): Promise<number> {
  const started = performance.now();
  while (performance.now() - started < LOAD_DEADLINE_MS) {
    const response = await post(`${gateway.url}${CHECK_PATH}`, key, { ip: FREE_ADDRESS }).catch(() => null);
    await response?.arrayBuffer();
    if (response?.status === 200) return performance.now() - started;
    if (response && response.status !== 503) throw new Error(`${CHECK_PATH} answered ${response.status} while loading`);
    await sleep(100);
  }
  throw new Error(`the gateway did not load its IP bans within ${LOAD_DEADLINE_MS} ms`);
}

async function capture(url: string, key: string, body: unknown): Promise<CapturedResponse> {
  const response = await post(url, key, body);
  if (response.status !== 200) throw new Error(`POST ${url} answered ${response.status}, expected 200`);
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!NODE_OWNED_HEADERS.has(name)) headers[name] = value;
  });
  return { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()) };
}

/** A NaN member (unread) makes the whole NaN: a figure missing a process is no figure. */
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/** The sum in MiB, then where it is: `<sum> MiB (primary <p> + processes <a>, <b>)`. */
function formatRss([primary, ...processes]: number[]): string {
  const mib = (value: number | undefined) => (value ?? Number.NaN).toFixed(0);
  const total = sum([primary ?? Number.NaN, ...processes]);
  if (processes.length === 0) return `${mib(total)} MiB (one process)`;
  return `${mib(total)} MiB (primary ${mib(primary)} + processes ${processes.map(mib).join(', ')})`;
}

interface Phase {
  targets: TargetResult[];
  /** Process CPU milliseconds per check request: gateway, baseline. */
  cpuMsPerCheck: { gateway: number; baseline: number };
  /** Machine CPU per check request: gateway run, baseline run. */
  machinePerCheck: { gateway: MachineCpu; baseline: MachineCpu };
  loadMs: number;
  /** VmRSS of the gateway's primary, then of each of its processes. */
  rssMiB: number[];
}

/**
 * The gateway with every ban loaded: discovery first, as the gateway without bans is measured
 * (fresh, just loaded, the same warm-up), then the check through HTTP against the bare baseline.
 */
async function withBans(context: BenchContext, key: string): Promise<Phase> {
  const gateway = await context.startGateway(BAN_CHECK_GATEWAY_ENV);
  const loadMs = await untilLoaded(gateway, key);
  const rssMiB = await processTreeMemoryMiB(gateway.pid, 'VmRSS');
  context.log(
    `gateway loaded its IP bans in ${(loadMs / 1000).toFixed(1)} s (RSS ${formatRss(rssMiB)}); measuring ${DISCOVERY_PATH}`,
  );
  const discovery = await measure(`${gateway.url}${DISCOVERY_PATH}`, context.load);
  context.log(`measuring ${CHECK_PATH} with the bans loaded`);
  const body = JSON.stringify({ ip: BANNED_ADDRESS });
  const headers = { authorization: `Admin ${key}`, 'content-type': 'application/json' };
  const checkUrl = `${gateway.url}${CHECK_PATH}`;
  const document = await capture(checkUrl, key, { ip: BANNED_ADDRESS });
  const steady = withSteadyStateWarmup(context.load);
  const check = await measureWithCpu(gateway.pid, steady, (load) =>
    measure(checkUrl, load, headers, { method: 'POST', body }),
  );
  const baseline = await context.startStaticBaseline(document);
  context.log('measuring the baseline');
  const bare = await measureWithCpu(baseline.pid, steady, (load) =>
    measure(`${baseline.url}${CHECK_PATH}`, load, headers, { method: 'POST', body }),
  );
  await baseline.stop();
  await gateway.stop();
  return {
    targets: [
      { target: 'check (gateway)', url: `${checkUrl} ${body}`, measurement: check.measurement },
      { target: 'check (baseline)', url: `${baseline.url}${CHECK_PATH}`, measurement: bare.measurement },
      { target: 'discovery, bans loaded', url: `${gateway.url}${DISCOVERY_PATH}`, measurement: discovery },
    ],
    cpuMsPerCheck: { gateway: check.cpuMsPerRequest, baseline: bare.cpuMsPerRequest },
    machinePerCheck: { gateway: check.machine, baseline: bare.machine },
    loadMs,
    rssMiB,
  };
}

/** The same gateway code with no bans at all: the price of enforcement is the difference. */
async function withoutBans(
  context: BenchContext,
  databaseUrl: string,
  key: string,
): Promise<{ target: TargetResult; rssMiB: number[] }> {
  await withPool(databaseUrl, (pool) => pool.query('TRUNCATE ip_bans'));
  const gateway = await context.startGateway(BAN_CHECK_GATEWAY_ENV);
  await untilLoaded(gateway, key);
  const rssMiB = await processTreeMemoryMiB(gateway.pid, 'VmRSS');
  context.log(`measuring ${DISCOVERY_PATH} with no bans`);
  const measurement: Measurement = await measure(`${gateway.url}${DISCOVERY_PATH}`, context.load);
  await gateway.stop();
  return { target: { target: 'discovery, no bans', url: `${gateway.url}${DISCOVERY_PATH}`, measurement }, rssMiB };
}

/**
 * POST /v1/admin/bans/ip/check through a spawned gateway holding 1.1M IP bans (authenticated
 * with a real admin key, so each request also reads the key from PostgreSQL) against a bare
 * express server answering the same bytes; then the cost of enforcement on every request:
 * discovery with the 1.1M bans loaded against a gateway with none.
 */
export const banCheck: Benchmark = {
  name: 'ban-check',
  description: `POST ${CHECK_PATH} with 1.1M bans loaded vs a bare express baseline; discovery with and without the bans`,
  async run(context) {
    const env = await context.serviceEnv();
    const databaseUrl = env['DATABASE_URL']!;
    const { key, seeded } = await seedBanCheck(databaseUrl, context.log);
    const loaded = await withBans(context, key);
    const empty = await withoutBans(context, databaseUrl, key);
    const [check, bare, discovery] = loaded.targets.map((target) => target.measurement) as [
      Measurement,
      Measurement,
      Measurement,
    ];
    return {
      benchmark: 'ban-check',
      notes: [
        `${seeded.toLocaleString('en-US')} IP bans seeded in SQL (${SEED.ipv4Singles.toLocaleString('en-US')} IPv4 + ${SEED.ipv6Singles.toLocaleString('en-US')} IPv6 addresses, ${SEED.ipv4Ranges.toLocaleString('en-US')} IPv4 /24 ranges)`,
        `first load of the bans by the gateway: ${(loaded.loadMs / 1000).toFixed(1)} s after /healthz answered; gateway RSS (all its processes) ${formatRss(loaded.rssMiB)} with the bans, ${formatRss(empty.rssMiB)} without`,
        `check body {"ip":"${BANNED_ADDRESS}"} (a banned address: the answer carries reason, dates and the match); each request authenticates its admin key (hash and expiry per request; the key row from memory while the change feed holds its lease, admin_key_lookups_total)`,
        `warm-up before the check runs (gateway and baseline): at least ${STEADY_STATE_WARMUP_SECONDS} s whatever --warmup says (a fresh process compiles its hot code meanwhile); discovery runs keep --warmup`,
        `process CPU per check (ms, user + system, measured run): gateway ${loaded.cpuMsPerCheck.gateway.toFixed(3)}, baseline ${loaded.cpuMsPerCheck.baseline.toFixed(3)}`,
        `machine CPU per check (ms, every core, load generator included; of which PostgreSQL and Redis): gateway ${formatMachineCpu(loaded.machinePerCheck.gateway)}, baseline ${formatMachineCpu(loaded.machinePerCheck.baseline)}`,
        'gateways started with RATE_LIMITS_ENABLED=false (explicit), NODE_ENV=production (development on the development S3 store, which production refuses), LOG_LEVEL=silent, GATEWAY_PROCESSES=auto (a process per core, as on a machine serving the gateway alone); the baseline answers the same bytes and headers',
        'gateway, baseline, PostgreSQL and autocannon share this machine: compare the ratios, not absolute numbers',
      ],
      targets: [...loaded.targets, empty.target],
      ratios: {
        'check gateway/baseline rps': ratio(check.requestsPerSecond, bare.requestsPerSecond),
        'check gateway/baseline p99 latency': ratio(check.latencyMs.p99, bare.latencyMs.p99),
        'check gateway/baseline CPU per request': ratio(loaded.cpuMsPerCheck.gateway, loaded.cpuMsPerCheck.baseline),
        'check gateway/baseline machine CPU per request': ratio(
          loaded.machinePerCheck.gateway.totalMs,
          loaded.machinePerCheck.baseline.totalMs,
        ),
        'discovery rps, bans loaded / none': ratio(
          discovery.requestsPerSecond,
          empty.target.measurement.requestsPerSecond,
        ),
        'discovery p99, bans loaded / none': ratio(discovery.latencyMs.p99, empty.target.measurement.latencyMs.p99),
      },
    };
  },
};
