import { parseIpAddress, parseIpNetwork, type IpNetwork } from '@switchboard/ip';
import type { Benchmark } from '../../types.ts';
import { banTexts, mulberry32, queryTexts } from './data.ts';
import {
  answerOf,
  encodePages,
  PAGE_SIZE,
  reload,
  reloadAtOnce,
  type BenchBan,
  type BenchTable,
  type ReloadResult,
} from './reload.ts';
import { asMeasurement, percentile, heapMiB, throughput, timed, timeEach } from './timing.ts';

const SINGLES = 1_000_000;
const RANGES = 100_000;
const QUERIES = 1_000_000;
const SEED = 0x5eed1e55;

/**
 * The same workload before this index (IpIndex of entry objects with bigint keys, the loader
 * parsing every row's text), measured on this machine at commit c18984d and again just before
 * the change (the second figure).
 */
const BEFORE = [
  'before (entry objects + bigint arrays, one synchronous build; c18984d / re-run before the change): build in network order 1451 / 1912 ms (the event loop held that long at every reload), random order 2587 / 2629 ms',
  'before: heap for entries + index 233 / 233 MiB; per-row text parse 3651 / 4380 ms for all rows; match p50 3.63 / 3.91 µs, p99 11.17 / 7.47 µs; parse + match p50 5.90 / 7.07 µs, p99 14.48 / 18.64 µs',
];

function parseAll(texts: string[]): IpNetwork[] {
  return texts.map((text) => {
    const network = parseIpNetwork(text);
    if (!network) throw new Error(`generator produced an unparsable network: ${text}`);
    return network;
  });
}

/** PostgreSQL's cidr order: family, address, then wider first. */
function networkOrder(a: BenchBan, b: BenchBan): number {
  const x = a.network;
  const y = b.network;
  return x.family - y.family || (x.start < y.start ? -1 : x.start > y.start ? 1 : 0) || x.prefix - y.prefix;
}

interface LookupResult {
  hitRate: number;
  timerNanos: Float64Array;
  covers: Float64Array;
  coversRate: number;
  parseAndCovers: Float64Array;
  parseAndCoversRate: number;
  answer: Float64Array;
}

function lookups(table: BenchTable, queries: string[], now: number): LookupResult {
  const { index } = table;
  const parsed = queries.map((text) => parseIpAddress(text)!);
  const covers = (i: number) => index.find(parsed[i]!, now) >= 0;
  // What enforcement does per request: parse the client's address text, then ask.
  const parseAndCovers = (i: number) => index.find(parseIpAddress(queries[i]!)!, now) >= 0;
  // What the check route does: find, then build the answer (matched text and the ban's fields).
  const answer = (i: number) => {
    const slot = index.find(parsed[i]!, now);
    return slot < 0 ? null : answerOf(table, slot);
  };
  let hits = 0;
  for (let i = 0; i < parsed.length; i++) if (covers(i)) hits++;
  return {
    hitRate: hits / queries.length,
    timerNanos: timeEach(100_000, () => undefined),
    covers: timeEach(queries.length, covers),
    coversRate: throughput(queries.length, covers),
    parseAndCovers: timeEach(queries.length, parseAndCovers),
    parseAndCoversRate: throughput(queries.length, parseAndCovers),
    answer: timeEach(200_000, answer),
  };
}

const count = (value: number) => Math.round(value).toLocaleString('en-US');
const ms = (value: number) => `${value.toFixed(0)} ms`;
const µs = (nanos: number) => `${(nanos / 1000).toFixed(2)} µs`;

interface Built {
  textParseMs: number;
  random: { wallMs: number; cpuMs: number };
  ordered: { wallMs: number; cpuMs: number };
  reloaded: ReloadResult;
  /** Typed arrays of the index and the columns, counted from the arrays. */
  tableMiB: number;
  /** Heap growth over the reload after a collection (noise: no per-ban objects are kept). */
  heapMiB: number;
}

function notes(built: Built, looked: LookupResult): string[] {
  const { reloaded } = built;
  return [
    `${count(SINGLES)} single addresses + ${count(RANGES)} CIDR ranges (10 % IPv6; IPv4 /16–/30, IPv6 /32–/64), mulberry32 seed ${SEED.toString(16)}`,
    `reload as the gateway runs it (pages of ${count(PAGE_SIZE)} packed records decoded, then the build, all in 8 ms slices; no PostgreSQL): ${ms(reloaded.wallMs)} wall / ${ms(reloaded.cpuMs)} CPU; longest event-loop block ${reloaded.longestBlockMs.toFixed(1)} ms (monitorEventLoopDelay max; 1 ms timer lag ${reloaded.longestTimerLagMs.toFixed(1)} ms)`,
    `the same reload in one piece (what a synchronous load would hold the thread for; not what the gateway does): network order ${ms(built.ordered.wallMs)} wall / ${ms(built.ordered.cpuMs)} CPU, random order (sorted by the builder) ${ms(built.random.wallMs)} wall / ${ms(built.random.cpuMs)} CPU`,
    `kept: index + metadata columns ${built.tableMiB.toFixed(1)} MiB of typed arrays, heap growth ${built.heapMiB.toFixed(1)} MiB; text parse of every row (what the loader no longer does) ${ms(built.textParseMs)}`,
    `${count(QUERIES)} lookups, ${(looked.hitRate * 100).toFixed(1)} % covered by a ban`,
    `covers (enforcement): p50 ${µs(percentile(looked.covers, 50))}, p99 ${µs(percentile(looked.covers, 99))}, ${count(looked.coversRate)} lookups/s untimed`,
    `parse + covers (enforcement per request): p50 ${µs(percentile(looked.parseAndCovers, 50))}, p99 ${µs(percentile(looked.parseAndCovers, 99))}, ${count(looked.parseAndCoversRate)}/s untimed`,
    `find + answer (check route: matched text, reason, dates): p50 ${µs(percentile(looked.answer, 50))}, p99 ${µs(percentile(looked.answer, 99))}`,
    ...BEFORE,
    `per-call timings include the timer itself (p50 ${µs(percentile(looked.timerNanos, 50))}); "req/s" is untimed lookups per second; latencies in ms`,
    'in-process, fixed workload: --connections, --duration and --warmup do not apply; wall times suffer on a shared machine, CPU times less',
  ];
}

/** Parses the ban texts and encodes them as the loader's pages: in network order (as the gateway reads them) and as generated. */
function prepare(now: number): { ordered: Buffer[]; shuffled: Buffer[]; textParseMs: number } {
  const texts = banTexts(mulberry32(SEED), SINGLES, RANGES);
  const parse = timed(() => [...parseAll(texts.singles), ...parseAll(texts.ranges)]);
  const bans: BenchBan[] = parse.result.map((network, i) => ({
    network,
    expiresAtMs: i % 4 === 0 ? now + 86_400_000 : Infinity,
    createdAtMs: now,
  }));
  const shuffled = encodePages(bans);
  return { ordered: encodePages(bans.sort(networkOrder)), shuffled, textParseMs: parse.wallMs };
}

/**
 * Reloads from the pages alone, once in one piece per order (what a synchronous load would hold
 * the thread for) and once in slices as the gateway does, weighing what that keeps. The parsed
 * networks are dropped first: a heap holding a million of them would make the collector's full
 * pauses (not the reload) the longest blocks, which the gateway, holding no per-ban objects,
 * does not have.
 */
async function build(now: number): Promise<Built> {
  const { ordered, shuffled, textParseMs } = prepare(now);
  const timesOf = ({ wallMs, cpuMs }: { wallMs: number; cpuMs: number }) => ({ wallMs, cpuMs });
  const atOnce = timesOf(reloadAtOnce(ordered));
  const atOnceShuffled = timesOf(reloadAtOnce(shuffled));
  const heapBefore = heapMiB();
  const reloaded = await reload(ordered);
  const heapGrowth = heapMiB() - heapBefore;
  const { index, createdAtMs, reasonIds } = reloaded.table;
  const tableMiB = (index.byteLength + createdAtMs.byteLength + reasonIds.byteLength) / 2 ** 20;
  return { textParseMs, ordered: atOnce, random: atOnceShuffled, reloaded, tableMiB, heapMiB: heapGrowth };
}

/**
 * The in-memory IP ban index in this process: 1M single addresses and 100k ranges (10 % IPv6)
 * reloaded as the gateway does it (packed pages decoded and the index built in time slices),
 * then 1M lookups of client addresses (exact hits, range hits and misses). Reload time and the
 * longest event-loop block, memory kept, and p50/p99 per lookup.
 */
export const ipLookup: Benchmark = {
  name: 'ip-lookup',
  description: `in-process IP ban index: ${count(SINGLES)} addresses + ${count(RANGES)} ranges; reload time and longest block, memory, p50/p99 per lookup`,
  async run(context) {
    const now = Date.now();
    const built = await build(now);
    // The same generator again (deterministic): the queries' texts were not kept during the reload.
    const random = mulberry32(SEED);
    const queries = queryTexts(random, banTexts(random, SINGLES, RANGES), QUERIES);
    context.log(
      `reloaded the index of ${count(built.reloaded.table.index.size)} bans in ${ms(built.reloaded.wallMs)}; looking up`,
    );
    const looked = lookups(built.reloaded.table, queries, now);
    return {
      benchmark: 'ip-lookup',
      notes: notes(built, looked),
      targets: [
        { target: 'covers', url: 'in-process', measurement: asMeasurement(looked.covers, looked.coversRate) },
        {
          target: 'parse+covers',
          url: 'in-process',
          measurement: asMeasurement(looked.parseAndCovers, looked.parseAndCoversRate),
        },
      ],
      ratios: {
        'reload ms (sliced, no PostgreSQL)': built.reloaded.wallMs,
        'reload CPU ms': built.reloaded.cpuMs,
        'reload longest event-loop block ms': built.reloaded.longestBlockMs,
        'reload in one piece ms (network order)': built.ordered.wallMs,
        'reload in one piece CPU ms (network order)': built.ordered.cpuMs,
        'index + columns MiB': built.tableMiB,
        'covers p50 µs': percentile(looked.covers, 50) / 1000,
        'covers p99 µs': percentile(looked.covers, 99) / 1000,
      },
    };
  },
};
