import { setTimeout as sleep } from 'node:timers/promises';
import { childPids } from '@switchboard/testkit/processes';
import { waitFor } from '@switchboard/testkit/wait';
import type { RunningGateway, SupervisedWorker } from '../../processes.ts';
import { replacementsListening } from '../gateway-kill/index.ts';
import type { Clock } from '../outage/traffic.ts';
import type { ChaosStores } from './stores.ts';
import { describeFault, type ChaosEvent, type ChaosFault, type ChaosWorker } from './schedule.ts';

/** What the faults act on. */
export interface ChaosTargets {
  stores: ChaosStores;
  gateway: RunningGateway;
  workers: Record<ChaosWorker, SupervisedWorker>;
}

/** One fault as it happened, on the traffic's clock: from its start until what it broke was back. */
export interface FaultRecord {
  description: string;
  startMs: number;
  endMs: number;
}

/** How long a killed gateway process's replacement may take to listen. */
const REPLACEMENT_TIMEOUT_MS = 30_000;

/** Does the fault, and returns once what it broke is back: the store thawed or restarted, the process replaced. */
async function inflict(fault: ChaosFault, { stores, gateway, workers }: ChaosTargets): Promise<void> {
  switch (fault.kind) {
    case 'freeze': {
      const store = stores.byKind[fault.store];
      await store.freeze();
      await sleep(fault.forMs);
      await store.thaw();
      return;
    }
    case 'restart': {
      const store = stores.byKind[fault.store];
      await store.kill();
      await sleep(fault.downMs);
      await store.restart();
      return;
    }
    case 'kill-gateway': {
      const back = replacementsListening(gateway);
      const [victim] = await childPids(gateway.process.child.pid!);
      if (victim === undefined) throw new Error('the gateway has no process to kill');
      process.kill(victim, 'SIGKILL');
      await waitFor(async () => replacementsListening(gateway) > back, REPLACEMENT_TIMEOUT_MS);
      return;
    }
    case 'kill-worker': {
      await workers[fault.worker].kill();
      await workers[fault.worker].restart();
      return;
    }
  }
}

/**
 * Runs each lane's faults in order, each when it is due (or at once, when the one before it
 * ran late: the same faults in the same order whatever the machine's speed), the lanes side by side.
 */
export async function runSchedule(
  events: readonly ChaosEvent[],
  targets: ChaosTargets,
  clock: Clock,
  log: (message: string) => void,
): Promise<FaultRecord[]> {
  const origin = clock();
  const records: FaultRecord[] = [];
  const lane = async (name: ChaosEvent['lane']) => {
    for (const event of events.filter((candidate) => candidate.lane === name)) {
      const wait = origin + event.atMs - clock();
      if (wait > 0) await sleep(wait);
      const description = describeFault(event.fault);
      const startMs = clock();
      log(`chaos: ${((startMs - origin) / 1000).toFixed(1)} s ${description}`);
      await inflict(event.fault, targets);
      records.push({ description, startMs, endMs: clock() });
    }
  };
  await Promise.all([lane('stores'), lane('processes')]);
  return records.sort((a, b) => a.startMs - b.startMs);
}
