import type { Benchmark } from '../types.ts';
import { archiveExport } from './archive-export/index.ts';
import { assetPurge } from './asset-purge/index.ts';
import { auditSearch } from './audit-search/index.ts';
import { banCheck } from './ban-check/index.ts';
import { bulkAdd } from './bulk-add/index.ts';
import { deliveryLatency } from './delivery-latency/index.ts';
import { deliveryThroughput } from './delivery-throughput/index.ts';
import { discovery } from './discovery.ts';
import { ipLookup } from './ip-lookup/index.ts';
import { system } from './system/index.ts';
import { webhookExecute } from './webhook-execute/index.ts';
import { webhookIngest } from './webhook-ingest/index.ts';
import { webhookIngestSustained } from './webhook-ingest-sustained/index.ts';

/**
 * Every benchmark, by the name `npm run bench -- <name>` takes. A new one is a module in this
 * folder exporting a Benchmark, added here (IP ban check, webhook ingest, queue throughput,
 * audit search, …).
 */
export const BENCHMARKS: readonly Benchmark[] = [
  discovery,
  auditSearch,
  ipLookup,
  banCheck,
  webhookIngest,
  webhookIngestSustained,
  webhookExecute,
  deliveryThroughput,
  deliveryLatency,
  bulkAdd,
  assetPurge,
  archiveExport,
  system,
];

export function findBenchmarks(names: string[]): Benchmark[] {
  if (names.length === 0) return [...BENCHMARKS];
  return names.map((name) => {
    const benchmark = BENCHMARKS.find((candidate) => candidate.name === name);
    if (!benchmark) throw new Error(`unknown benchmark "${name}"; known: ${BENCHMARKS.map((b) => b.name).join(', ')}`);
    return benchmark;
  });
}
