import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { IpIndex, parseIpAddress, parseIpNetwork, type IndexedEntry, type IpNetwork } from '@switchboard/ip';
import type { Measurement } from '../../measure.ts';
import type { Benchmark } from '../../types.ts';
import { banTexts, mulberry32, queryTexts, type BanTexts } from './data.ts';

const SINGLES = 1_000_000;
const RANGES = 100_000;
const QUERIES = 1_000_000;
const SEED = 0x5eed1e55;

/** What the gateway's enforcement index holds per ban (reason interned, times as numbers). */
interface BenchEntry extends IndexedEntry {
  reason: string | null;
  createdAtMs: number;
}

/** A real collection before heap readings (the flag is set at run time, for this process only). */
function collectGarbage(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

function heapMiB(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

function parseAll(texts: string[]): IpNetwork[] {
  return texts.map((text) => {
    const network = parseIpNetwork(text);
    if (!network) throw new Error(`generator produced an unparsable network: ${text}`);
    return network;
  });
}

/** Nearest-rank percentile of an ascending array. */
function percentile(sorted: Float64Array, p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Each call timed on its own (hrtime), so the tail is real; the timer's own cost is reported. */
function timeEach(count: number, call: (i: number) => unknown): Float64Array {
  const nanos = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const started = process.hrtime.bigint();
    call(i);
    nanos[i] = Number(process.hrtime.bigint() - started);
  }
  return nanos.sort();
}

function asMeasurement(sortedNanos: Float64Array, throughputPerSecond: number): Measurement {
  const ms = (p: number) => percentile(sortedNanos, p) / 1e6;
  const total = sortedNanos.reduce((sum, value) => sum + value, 0);
  return {
    requestsPerSecond: throughputPerSecond,
    latencyMs: { p50: ms(50), p90: ms(90), p95: ms(95), p99: ms(99), mean: total / sortedNanos.length / 1e6, max: sortedNanos[sortedNanos.length - 1]! / 1e6 },
    requests: sortedNanos.length,
    non2xx: 0,
    statusCodes: {},
    errors: 0,
    timeouts: 0,
    bytesPerSecond: 0,
    durationSeconds: total / 1e9,
  };
}

/** Lookups per second without per-call timers (the throughput a tight loop gets). */
function throughput(count: number, call: (i: number) => unknown): number {
  const started = process.hrtime.bigint();
  for (let i = 0; i < count; i++) call(i);
  return count / (Number(process.hrtime.bigint() - started) / 1e9);
}

/** PostgreSQL's cidr order: family, address, then wider first. */
function networkOrder(a: IndexedEntry, b: IndexedEntry): number {
  const x = a.network;
  const y = b.network;
  return x.family - y.family || (x.start < y.start ? -1 : x.start > y.start ? 1 : 0) || x.prefix - y.prefix;
}

function cpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** Wall and CPU time of one build (CPU: the machine may be shared, wall then overstates). */
function buildTimes(entries: BenchEntry[]): { index: IpIndex<BenchEntry>; wallMs: number; cpuMs: number } {
  collectGarbage();
  const cpuStart = cpuMs();
  const started = performance.now();
  const index = new IpIndex(entries);
  return { index, wallMs: performance.now() - started, cpuMs: cpuMs() - cpuStart };
}

const µs = (nanos: number) => `${(nanos / 1000).toFixed(2)} µs`;

interface BuildResult {
  index: IpIndex<BenchEntry>;
  parseMs: number;
  ordered: { wallMs: number; cpuMs: number };
  unordered: { wallMs: number; cpuMs: number };
  heapMiB: number;
}

/** Parses the ban texts as the loader does, builds from random and from network order, weighs the result. */
function build(texts: BanTexts, now: number): BuildResult {
  const heapBefore = heapMiB();
  const started = performance.now();
  const networks = [...parseAll(texts.singles), ...parseAll(texts.ranges)];
  const parseMs = performance.now() - started;
  const entries: BenchEntry[] = networks.map((network, i) => ({ network, expiresAtMs: i % 4 === 0 ? now + 86_400_000 : null, reason: 'bench', createdAtMs: now }));
  networks.length = 0;
  // Timed, then dropped: only the ordered build is kept.
  const { wallMs, cpuMs } = buildTimes(entries);
  // The gateway loads rows in network order (the unique index's): the build sorts sorted input.
  entries.sort(networkOrder);
  const ordered = buildTimes(entries);
  entries.length = 0;
  return { index: ordered.index, parseMs, ordered, unordered: { wallMs, cpuMs }, heapMiB: heapMiB() - heapBefore };
}

interface LookupResult {
  hitRate: number;
  timerNanos: Float64Array;
  match: Float64Array;
  matchRate: number;
  parseAndMatch: Float64Array;
  parseAndMatchRate: number;
}

function lookups(index: IpIndex<BenchEntry>, queries: string[], now: number): LookupResult {
  const parsed = queries.map((text) => parseIpAddress(text)!);
  let hits = 0;
  for (const query of parsed) if (index.match(query, now)) hits++;
  // What enforcement does per request: parse the client's address text, then look it up.
  const parseAndMatch = (i: number) => index.match(parseIpAddress(queries[i]!)!, now);
  return {
    hitRate: hits / queries.length,
    timerNanos: timeEach(100_000, () => undefined),
    match: timeEach(queries.length, (i) => index.match(parsed[i]!, now)),
    matchRate: throughput(queries.length, (i) => index.match(parsed[i]!, now)),
    parseAndMatch: timeEach(queries.length, parseAndMatch),
    parseAndMatchRate: throughput(queries.length, parseAndMatch),
  };
}

const count = (value: number) => Math.round(value).toLocaleString('en-US');
const ms = (value: number) => `${value.toFixed(0)} ms`;

function notes(built: BuildResult, looked: LookupResult): string[] {
  const { ordered, unordered } = built;
  return [
    `${count(SINGLES)} single addresses + ${count(RANGES)} CIDR ranges (10 % IPv6; IPv4 /16–/30, IPv6 /32–/64), mulberry32 seed ${SEED.toString(16)}`,
    `parse ${ms(built.parseMs)}; IpIndex build from rows in network order (as the gateway loads them) ${ms(ordered.wallMs)} wall / ${ms(ordered.cpuMs)} CPU, from random order ${ms(unordered.wallMs)} wall / ${ms(unordered.cpuMs)} CPU`,
    `heap for entries + index: ${built.heapMiB.toFixed(0)} MiB`,
    `${count(QUERIES)} lookups, ${(looked.hitRate * 100).toFixed(1)} % covered by a ban`,
    `match: p50 ${µs(percentile(looked.match, 50))}, p99 ${µs(percentile(looked.match, 99))}, ${count(looked.matchRate)} lookups/s untimed`,
    `parse + match (enforcement per request): p50 ${µs(percentile(looked.parseAndMatch, 50))}, p99 ${µs(percentile(looked.parseAndMatch, 99))}, ${count(looked.parseAndMatchRate)}/s untimed`,
    `per-call timings include the timer itself (p50 ${µs(percentile(looked.timerNanos, 50))}); "req/s" is untimed lookups per second; latencies in ms`,
    'in-process, fixed workload: --connections, --duration and --warmup do not apply; wall times suffer on a shared machine, CPU times less',
  ];
}

/**
 * The in-memory IP ban index in this process: 1M single addresses and 100k ranges (10 % IPv6),
 * parsed from text as the gateway loads them, then 1M lookups of client addresses (exact hits,
 * range hits and misses). Build time, heap, and p50/p99 per lookup.
 */
export const ipLookup: Benchmark = {
  name: 'ip-lookup',
  description: `in-process IpIndex: ${count(SINGLES)} addresses + ${count(RANGES)} ranges; build time, heap, p50/p99 per lookup`,
  async run(context) {
    const random = mulberry32(SEED);
    const texts = banTexts(random, SINGLES, RANGES);
    const queries = queryTexts(random, texts, QUERIES);
    const now = Date.now();
    const built = build(texts, now);
    context.log(`built the index of ${count(built.index.size)} bans in ${ms(built.ordered.wallMs)}; looking up`);
    const looked = lookups(built.index, queries, now);
    return {
      benchmark: 'ip-lookup',
      notes: notes(built, looked),
      targets: [
        { target: 'match', url: 'in-process', measurement: asMeasurement(looked.match, looked.matchRate) },
        { target: 'parse+match', url: 'in-process', measurement: asMeasurement(looked.parseAndMatch, looked.parseAndMatchRate) },
      ],
      ratios: {
        'index build ms (network order)': built.ordered.wallMs,
        'index build CPU ms (network order)': built.ordered.cpuMs,
        'index heap MiB': built.heapMiB,
        'match p50 µs': percentile(looked.match, 50) / 1000,
        'match p99 µs': percentile(looked.match, 99) / 1000,
      },
    };
  },
};
