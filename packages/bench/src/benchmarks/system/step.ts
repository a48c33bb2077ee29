import { setTimeout as sleep } from 'node:timers/promises';
import { loadGeneratorPid, mixLoad } from '../../load-generator.ts';
import type { Measurement } from '../../measure.ts';
import type { MixMeasurement } from '../../paced-mix.ts';
import { pending, type BenchQueue } from '../webhook-support/queue.ts';
import { sharedLanes, type SharedClass } from './mix.ts';
import { operationLanes, type OperationSupplies } from './operations.ts';
import { ownDescendant } from '../../process-cpu.ts';
import { startSampler, type Sample, type Watched } from './sampler.ts';
import type { SeededGuild } from './seed.ts';
import type { RunningSystem } from './topology.ts';

/** The issue's bound: the largest mixed load the machine holds has executes' p99 under this. */
export const EXECUTE_P99_LIMIT_MS = 50;
/** Deliveries left waiting or running at the end of a load that still count as keeping up: this many seconds of executes. */
const BACKLOG_LIMIT_SECONDS = 2;
const BACKLOG_FLOOR = 200;
const DRAIN_LIMIT_MS = 120_000;
/** The load generator's name among the sampled processes. */
export const LOAD_GENERATOR = 'load generator';

export interface Verdict {
  passed: boolean;
  /** Why not, one line each. */
  reasons: string[];
}

export interface StepResult {
  /** Requests a second of the shared classes together (the heavy operations come on top). */
  totalRate: number;
  seconds: number;
  measurement: MixMeasurement;
  samples: Sample[];
  verdict: Verdict;
}

export interface StepRunner {
  run(totalRate: number, seconds: number): Promise<StepResult>;
  /** Waits (bounded) until every queue is empty; answers the seconds it took, or NaN when it did not empty. */
  drain(): Promise<number>;
}

export interface StepSetup {
  system: RunningSystem;
  classes: readonly SharedClass[];
  supplies: OperationSupplies;
  guild: SeededGuild;
  queues: readonly BenchQueue[];
  /** Most connections one lane opens (--connections). */
  maxConnections: number;
}

function failures(name: string, m: Measurement): string | null {
  const bad = Object.entries(m.statusCodes).filter(([status]) => !status.startsWith('2'));
  const parts = [
    ...bad.map(([status, count]) => `${count}× ${status}`),
    ...Object.entries(m.errorCodes ?? {}).map(([code, count]) => `${count}× ${code}`),
    ...(m.timeouts > 0 ? [`${m.timeouts} unanswered`] : []),
  ];
  return parts.length === 0 ? null : `${name}: ${parts.join(', ')}`;
}

/**
 * Holds when executes' p99 is under EXECUTE_P99_LIMIT_MS, no request of any class failed and the
 * webhook worker kept up (the deliveries waiting or running at the end are at most
 * BACKLOG_LIMIT_SECONDS of executes).
 */
export function judge(result: Omit<StepResult, 'verdict'>, deliveriesQueue: string): Verdict {
  const reasons: string[] = [];
  const executes = result.measurement.groups['executes']!;
  if (!(executes.latencyMs.p99 < EXECUTE_P99_LIMIT_MS)) {
    reasons.push(`executes p99 ${executes.latencyMs.p99.toFixed(1)} ms`);
  }
  for (const [name, m] of Object.entries(result.measurement.lanes)) {
    const failed = failures(name, m);
    if (failed) reasons.push(failed);
  }
  const backlog = result.samples.at(-1)?.backlog[deliveriesQueue] ?? Number.NaN;
  const limit = Math.max(BACKLOG_FLOOR, BACKLOG_LIMIT_SECONDS * executes.requestsPerSecond);
  if (!(backlog <= limit))
    reasons.push(`${backlog} deliveries waiting or running at the end (limit ${Math.round(limit)})`);
  return { passed: reasons.length === 0, reasons };
}

export function stepRunner(setup: StepSetup, deliveriesQueue: string): StepRunner {
  // Found on the first load: the embedded store starts with the run's services.
  let s3Store: Promise<number | undefined> | undefined;
  const watched = (s3: number | undefined): Watched[] => {
    const generator = loadGeneratorPid();
    return [
      ...setup.system.processes,
      ...(s3 === undefined ? [] : [{ name: 'S3 store (s3rver)', pid: s3 }]),
      ...(generator === undefined ? [] : [{ name: LOAD_GENERATOR, pid: generator }]),
      { name: 'postgres', command: 'postgres' },
      { name: 'redis-server', command: 'redis-server' },
    ];
  };
  return {
    async run(totalRate, seconds) {
      const { gatewayUrls } = setup.system;
      const lanes = [
        ...sharedLanes(setup.classes, gatewayUrls, totalRate, setup.maxConnections),
        ...operationLanes(setup.guild, setup.supplies, gatewayUrls, seconds),
      ];
      s3Store ??= ownDescendant('s3-server');
      const s3 = await s3Store;
      // The load first: its generator process exists by the sampler's first reading.
      const load = mixLoad({ lanes, durationSeconds: seconds });
      const sampler = startSampler(setup.queues, () => watched(s3));
      let measurement: MixMeasurement;
      let samples: Sample[];
      try {
        measurement = await load;
      } finally {
        samples = await sampler.stop();
      }
      const result = { totalRate, seconds, measurement, samples };
      return { ...result, verdict: judge(result, deliveriesQueue) };
    },
    async drain() {
      const started = performance.now();
      while (performance.now() - started < DRAIN_LIMIT_MS) {
        const left = await Promise.all(setup.queues.map(({ queue }) => pending(queue)));
        if (left.every((count) => count === 0)) return (performance.now() - started) / 1000;
        await sleep(250);
      }
      return Number.NaN;
    },
  };
}
