import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from '@switchboard/config';
import { CleanupStack } from '../cleanup.ts';
import { loadBenchConfig } from '../config.ts';
import { cpuPerUnit } from '../cpu-per-unit.ts';
import type { Measurement } from '../measure.ts';
import { spawnService, type RunningService } from '../processes.ts';
import { startBenchServices } from '../services.ts';
import { median } from '../rounds.ts';
import { startOtlpReceiver, type OtlpReceiver } from '@switchboard/testkit/otlp-receiver';
import { startPgBouncer } from '@switchboard/testkit/pgbouncer';
import { alternate, type Slice } from './alternate.ts';
import { GATEWAY_ENTRY_IN_TREE, parseVariant, type Variant } from './variant.ts';
import { WORKLOADS } from './workloads.ts';

const USAGE = `usage: npm run bench:compare -- <${Object.keys(WORKLOADS).join('|')}> <tree>[@NAME=value,...] <tree>[@...] ... [--rounds <n>] [--slice <s>] [--warmup <s>] [--connections <n>] [--rate <r>]
  tree           a checkout with its own node_modules: . for this one, or a git worktree of another revision after npm ci there
  @NAME=value    environment the variant's gateway gets on top of the workload's (comma-separated);
                 a value {otlp} is the URL of an OTLP/HTTP receiver in this process (tracing on),
                 {pgbouncer} the run's database through a PgBouncer in transaction mode the
                 harness starts, {database} the run's database itself (for DATABASE_DIRECT_URL)
  --rounds       slices of each variant, alternating (default 12)
  --slice        seconds of load per slice (default 3)
  --warmup       seconds of load each gateway gets first, not measured (default 10)
  --connections  concurrent connections (default 50)
  --rate         slices of a steady load at r requests/s (for tail latency at a given load) instead of as fast as the connections allow`;

const optionsSchema = z.object({
  rounds: z.coerce.number().int().min(1).max(200).default(12),
  slice: z.coerce.number().int().min(1).max(60).default(3),
  warmup: z.coerce.number().int().min(0).max(600).default(10),
  connections: z.coerce.number().int().min(1).max(10_000).default(50),
  rate: z.coerce.number().positive().max(1_000_000).optional(),
});

function parseCommandLine(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      rounds: { type: 'string' },
      slice: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      rate: { type: 'string' },
    },
  });
  const options = optionsSchema.safeParse(values);
  if (!options.success)
    throw new Error(options.error.issues.map((issue) => `--${issue.path.join('.')}: ${issue.message}`).join('\n'));
  const [workloadName, ...specs] = positionals;
  const workload = workloadName === undefined ? undefined : WORKLOADS[workloadName];
  if (!workloadName || !workload)
    throw new Error(`the first argument names a workload: ${Object.keys(WORKLOADS).join(', ')}`);
  if (specs.length === 0) throw new Error('name at least one variant');
  return { workloadName, workload, variants: specs.map((spec) => parseVariant(spec)), ...options.data };
}

let command: ReturnType<typeof parseCommandLine>;
try {
  command = parseCommandLine(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
  process.exit(2);
}

const log = (message: string) => process.stderr.write(`compare: ${message}\n`);
const cleanup = new CleanupStack();
process.once('SIGINT', () => void cleanup.run().then(() => process.exit(130)));

/** One slice of load on `gateway`: the CPU its processes and the machine spent per request meanwhile, the rate and the latency. */
async function measureSlice(gateway: RunningService, drive: () => Promise<Measurement>): Promise<Slice> {
  const { result: run, cpuMsPerUnit, machine } = await cpuPerUnit(gateway.pid, drive, (measured) => measured.requests);
  // A variant answering errors is doing other work: no figure of it compares.
  if (run.non2xx > 0 || run.errors > 0)
    throw new Error(`${gateway.name}: ${run.non2xx} non-2xx answers and ${run.errors} errors in a slice`);
  return {
    cpuMsPerRequest: cpuMsPerUnit,
    machineMsPerRequest: machine.totalMs,
    requestsPerSecond: run.requestsPerSecond,
    p50Ms: run.latencyMs.p50,
    p99Ms: run.latencyMs.p99,
  };
}

/** `median (min-max)` of `values`, each with `digits` decimals. */
function spread(values: number[], digits: number): string {
  return `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}-${Math.max(...values).toFixed(digits)})`;
}

function report(variants: Variant[], slices: Slice[][]): string {
  const rows = variants.map((variant, index) => {
    const mine = slices[index]!;
    const cpu = mine.map((slice) => slice.cpuMsPerRequest);
    return {
      label: variant.label,
      cpu: median(cpu),
      cpuSpread: spread(cpu, 4),
      machine: median(mine.map((slice) => slice.machineMsPerRequest)),
      rate: median(mine.map((slice) => slice.requestsPerSecond)),
      p50: median(mine.map((slice) => slice.p50Ms)),
      p99Spread: spread(
        mine.map((slice) => slice.p99Ms),
        1,
      ),
    };
  });
  const first = rows[0]!;
  const width = Math.max(7, ...rows.map((row) => row.label.length));
  const lines = [
    `${'variant'.padEnd(width)}  CPU ms/request median (min-max)  vs first  machine ms/request  req/s median  vs first  p50 ms median  p99 ms median (min-max)`,
  ];
  for (const row of rows) {
    lines.push(
      [
        row.label.padEnd(width),
        row.cpuSpread.padEnd(31),
        (row.cpu / first.cpu).toFixed(3).padStart(8),
        row.machine.toFixed(4).padStart(18),
        row.rate.toFixed(0).padStart(12),
        (row.rate / first.rate).toFixed(3).padStart(8),
        row.p50.toFixed(2).padStart(13),
        row.p99Spread,
      ].join('  '),
    );
  }
  return lines.join('\n');
}

/** Values a variant's environment may name, filled in by the harness (see USAGE). */
const OTLP_RECEIVER = '{otlp}';
const PGBOUNCER = '{pgbouncer}';
const DATABASE = '{database}';

const names = (variants: Variant[], placeholder: string) =>
  variants.some((variant) => Object.values(variant.env).includes(placeholder));

/**
 * An OTLP/HTTP receiver in this process when a variant traces to it, taking the spans as a
 * collector would (answered, not kept) without a collector's own CPU on the machine.
 */
async function otlpReceiverFor(variants: Variant[]): Promise<OtlpReceiver | undefined> {
  if (!names(variants, OTLP_RECEIVER)) return undefined;
  const receiver = await startOtlpReceiver({ keepSpans: false });
  cleanup.defer('OTLP receiver', () => receiver.close());
  return receiver;
}

/** A PgBouncer in transaction mode in front of the run's database when a variant reaches it through one. */
async function pgBouncerFor(variants: Variant[], databaseUrl: string): Promise<string | undefined> {
  if (!names(variants, PGBOUNCER)) return undefined;
  const bouncer = await startPgBouncer(databaseUrl, 'transaction');
  cleanup.defer('PgBouncer', () => bouncer.stop());
  return bouncer.urlFor(databaseUrl);
}

function filledIn(env: Record<string, string>, values: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(Object.entries(env).map(([name, value]) => [name, values[value] ?? value]));
}

/**
 * Gateways from several checkouts or environments, one process each, on one database,
 * driven in turn: short slices of the same load, alternating (alternate.ts), each slice's
 * gateway CPU per request read from /proc. On a shared machine alternating slices of two
 * identical variants differ far less than sequential benchmark runs of one build do
 * (packages/bench/README.md#the-harness).
 */
async function main(): Promise<void> {
  const { workload, workloadName, variants, rounds, slice, warmup, connections, rate } = command;
  const services = await startBenchServices(loadBenchConfig(), cleanup);
  const base = services.processEnv();
  log(`preparing ${workloadName}: ${workload.description}`);
  const prepared = await workload.prepare(base['DATABASE_URL']!, log);
  const receiver = await otlpReceiverFor(variants);
  const placeholders = {
    [OTLP_RECEIVER]: receiver?.url,
    [PGBOUNCER]: await pgBouncerFor(variants, base['DATABASE_URL']!),
    [DATABASE]: base['DATABASE_URL'],
  };
  const gateways: RunningService[] = [];
  for (const [index, variant] of variants.entries()) {
    // Each its own queue prefix: one variant's jobs never land in another's queue.
    const env = services.processEnv({
      GATEWAY_PROCESSES: '1',
      ...workload.gatewayEnv,
      REDIS_PREFIX: `${base['REDIS_PREFIX']}-v${index}`,
      ...filledIn(variant.env, placeholders),
    });
    const gateway = await spawnService(
      { name: variant.label, entry: join(variant.tree, GATEWAY_ENTRY_IN_TREE), env },
      (name, stop) => cleanup.defer(name, stop),
    );
    await prepared.ready(gateway);
    gateways.push(gateway);
  }
  for (const gateway of gateways) {
    log(`warming ${gateway.name} up for ${warmup} s`);
    if (warmup > 0) await prepared.drive(gateway, { connections, durationSeconds: warmup, warmupSeconds: 0 });
  }
  const load = { connections, durationSeconds: slice, warmupSeconds: 0 };
  const paced = rate === undefined ? undefined : { requestsPerSecond: rate, durationSeconds: slice, connections };
  const drive = (gateway: RunningService) => (paced ? prepared.pace(gateway, paced) : prepared.drive(gateway, load));
  const what = `${rounds} rounds of ${slice} s slices${paced ? ` at ${rate} requests/s` : ''}`;
  log(what);
  const slices = await alternate(gateways.length, rounds, (index) =>
    measureSlice(gateways[index]!, () => drive(gateways[index]!)),
  );
  if (receiver) log(`the OTLP receiver took ${receiver.exports()} exports`);
  process.stdout.write(
    `${workloadName}: ${what}, one gateway process each unless its GATEWAY_PROCESSES says otherwise, after ${warmup} s of warm-up\n${report(variants, slices)}\n`,
  );
}

try {
  await main();
} catch (error) {
  log((error as Error).stack ?? String(error));
  process.exitCode = 1;
} finally {
  await cleanup.run();
}
process.exit(process.exitCode ?? 0);
