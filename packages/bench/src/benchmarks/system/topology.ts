import { join } from 'node:path';
import { REPO_ROOT } from '../../config.ts';
import { stopChild } from '../../processes.ts';
import type { BenchContext } from '../../types.ts';
import { BAN_CHECK_GATEWAY_ENV, untilLoaded } from '../ban-check/index.ts';
import { spawnWorker, WEBHOOK_WORKER_ENTRY } from '../webhook-support/worker-process.ts';

const WORKER_ENTRIES = {
  'archive-worker': join(REPO_ROOT, 'services/archive-worker/src/main.ts'),
  'asset-purge-worker': join(REPO_ROOT, 'services/asset-purge-worker/src/main.ts'),
  'bulk-worker': join(REPO_ROOT, 'services/bulk-worker/src/main.ts'),
};

/** How many gateway instances and webhook workers; one of each other worker either way. */
export interface Topology {
  gateways: number;
  webhookWorkers: number;
}

export function describeTopology({ gateways, webhookWorkers }: Topology): string {
  return `${gateways} gateway${gateways > 1 ? 's' : ''} + ${webhookWorkers} webhook worker${webhookWorkers > 1 ? 's' : ''}`;
}

/** One of the system's processes, whose CPU and memory are sampled with its descendants. */
export interface SystemProcess {
  name: string;
  pid: number;
}

export interface RunningSystem {
  topology: Topology;
  gatewayUrls: string[];
  processes: SystemProcess[];
  stop(): Promise<void>;
}

/**
 * The system on the run's services: `gateways` gateway instances, each a process of its own
 * (GATEWAY_PROCESSES=1: replicas with their own caches, ban index and connections, as separate
 * machines or containers would run them, rather than one primary's cluster), each with every
 * IP ban loaded before it counts as started; `webhookWorkers` webhook workers; and one archive,
 * asset-purge and bulk worker. Rate limits are off (a few admin keys send hundreds of requests a
 * second); everything else as configured by default.
 */
export async function startSystem(
  context: BenchContext,
  env: Record<string, string>,
  topology: Topology,
  adminKey: string,
): Promise<RunningSystem> {
  const stops: Array<() => Promise<void>> = [];
  const processes: SystemProcess[] = [];
  const gatewayUrls: string[] = [];
  for (let index = 1; index <= topology.gateways; index++) {
    const gateway = await context.startGateway({ ...BAN_CHECK_GATEWAY_ENV, GATEWAY_PROCESSES: '1' });
    stops.push(gateway.stop);
    await untilLoaded(gateway, adminKey);
    processes.push({ name: `gateway ${index}`, pid: gateway.pid });
    gatewayUrls.push(gateway.url);
  }
  const workers: Array<[string, string]> = [
    ...Array.from({ length: topology.webhookWorkers }, (_, index): [string, string] => [
      `webhook-worker ${index + 1}`,
      WEBHOOK_WORKER_ENTRY,
    ]),
    ...Object.entries(WORKER_ENTRIES),
  ];
  for (const [name, entry] of workers) {
    const worker = await spawnWorker(context, entry, env);
    stops.push(() => stopChild(worker));
    processes.push({ name, pid: worker.pid ?? -1 });
  }
  context.log(`started ${describeTopology(topology)}, an archive, an asset-purge and a bulk worker`);
  return {
    topology,
    gatewayUrls,
    processes,
    // Workers first (they finish or release their jobs), then the gateways.
    stop: async () => {
      for (const stop of stops.reverse()) await stop();
    },
  };
}
