import { seededRandom, type Random } from './random.ts';

export type ChaosStore = 'redis' | 'postgres' | 's3';
export type ChaosWorker = 'webhook-worker' | 'archive-worker' | 'asset-purge-worker' | 'bulk-worker';

export const CHAOS_WORKERS: readonly ChaosWorker[] = [
  'webhook-worker',
  'archive-worker',
  'asset-purge-worker',
  'bulk-worker',
];

export type ChaosFault =
  /** The store's processes SIGSTOPped for `forMs`, then continued. */
  | { kind: 'freeze'; store: ChaosStore; forMs: number }
  /** Redis SIGKILLed (back on its append-only file) or PostgreSQL shut down, started again `downMs` later. */
  | { kind: 'restart'; store: 'redis' | 'postgres'; downMs: number }
  /** One of the gateway's processes SIGKILLed; its primary starts another. */
  | { kind: 'kill-gateway' }
  /** A worker process SIGKILLed, then started again as a supervisor would. */
  | { kind: 'kill-worker'; worker: ChaosWorker };

/**
 * Two lanes run side by side, each one fault at a time: the stores (one store failing at a
 * time, so every fault is a single failure the system must ride out) and the processes.
 */
export interface ChaosEvent {
  /** When the fault is due, in ms from the start of the faults. */
  atMs: number;
  lane: 'stores' | 'processes';
  fault: ChaosFault;
}

type Range = readonly [min: number, max: number];

/** Quiet between two faults of one lane, and how long a store fault lasts (ms). */
const STORE_GAP_MS: Range = [2_000, 6_000];
const FREEZE_MS: Range = [2_000, 6_000];
const RESTART_DOWN_MS: Range = [1_000, 4_000];
const PROCESS_GAP_MS: Range = [3_000, 8_000];

function storeFault(random: Random): ChaosFault {
  const restart = random.next() < 0.3;
  if (restart)
    return {
      kind: 'restart',
      store: random.pick(['redis', 'postgres'] as const),
      downMs: random.between(...RESTART_DOWN_MS),
    };
  return {
    kind: 'freeze',
    store: random.pick(['redis', 'postgres', 's3'] as const),
    forMs: random.between(...FREEZE_MS),
  };
}

function processFault(random: Random): ChaosFault {
  return random.next() < 0.4 ? { kind: 'kill-gateway' } : { kind: 'kill-worker', worker: random.pick(CHAOS_WORKERS) };
}

const faultMs = (fault: ChaosFault) =>
  fault.kind === 'freeze' ? fault.forMs : fault.kind === 'restart' ? fault.downMs : 0;

/** Every fault due before `durationMs`, by lane, in the order each lane runs them. */
export function chaosSchedule(seed: number, durationMs: number): ChaosEvent[] {
  // Each lane draws from a source of its own: a change to one lane's rules leaves the other's faults as they were.
  const lanes: Array<{ lane: ChaosEvent['lane']; random: Random; gap: Range; fault: (random: Random) => ChaosFault }> =
    [
      { lane: 'stores' as const, random: seededRandom(seed), gap: STORE_GAP_MS, fault: storeFault },
      { lane: 'processes' as const, random: seededRandom(seed ^ 0x5bd1e995), gap: PROCESS_GAP_MS, fault: processFault },
    ];
  const events: ChaosEvent[] = [];
  for (const { lane, random, gap, fault: draw } of lanes) {
    let atMs = random.between(...gap);
    while (atMs < durationMs) {
      const fault = draw(random);
      events.push({ atMs, lane, fault });
      atMs += faultMs(fault) + random.between(...gap);
    }
  }
  return events.sort((a, b) => a.atMs - b.atMs);
}

/** `redis freeze 4.2 s`, `gateway SIGKILL`, `bulk-worker SIGKILL`: one fault, for the log and the table. */
export function describeFault(fault: ChaosFault): string {
  switch (fault.kind) {
    case 'freeze':
      return `${fault.store} frozen ${(fault.forMs / 1000).toFixed(1)} s`;
    case 'restart':
      return `${fault.store} restarted after ${(fault.downMs / 1000).toFixed(1)} s`;
    case 'kill-gateway':
      return 'a gateway process SIGKILLed';
    case 'kill-worker':
      return `${fault.worker} SIGKILLed`;
  }
}

/** `redis freeze×2 gateway kill×1 …`: how many of each kind of fault. */
export function faultCounts(events: readonly ChaosEvent[]): string {
  const counts = new Map<string, number>();
  for (const { fault } of events) {
    const name =
      fault.kind === 'kill-gateway'
        ? 'gateway kill'
        : fault.kind === 'kill-worker'
          ? `${fault.worker} kill`
          : `${fault.store} ${fault.kind}`;
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return [...counts]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, count]) => `${name}×${count}`)
    .join(' ');
}
