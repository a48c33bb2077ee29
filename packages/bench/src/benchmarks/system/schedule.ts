import { withSteadyStateWarmup } from '../../measure.ts';
import type { LoadOptions } from '../../types.ts';
import { OPERATION_INTERVAL_SECONDS, operationsIn, type OperationSupplies } from './operations.ts';
import type { CapacityOptions, SearchOptions } from './search.ts';
import type { OperationsPlan } from './seed-operations.ts';
import { EXECUTE_P99_LIMIT_MS } from './step.ts';

/** Search steps are short: an eighth of the capacity run, within these bounds (seconds). */
const MIN_STEP_SECONDS = 5;
const MAX_STEP_SECONDS = 15;

export interface Schedule {
  /** Each search step's load. */
  stepSeconds: number;
  /** The capacity run's load: --duration. */
  capacitySeconds: number;
  /** How many capacity runs at most, and how far each failing one steps down. */
  capacity: CapacityOptions;
  /** A discarded load before each topology's search: --warmup, at least STEADY_STATE_WARMUP_SECONDS. */
  warmupSeconds: number;
  /** Most steps one search may take. */
  stepsPerSearch: number;
  topologies: number;
  connections: number;
}

export function scheduleFor(
  load: LoadOptions,
  search: SearchOptions,
  capacity: CapacityOptions,
  topologies: number,
): Schedule {
  return {
    stepSeconds: Math.min(MAX_STEP_SECONDS, Math.max(MIN_STEP_SECONDS, Math.round(load.durationSeconds / 8))),
    capacitySeconds: load.durationSeconds,
    capacity,
    // Fresh processes compile their hot code meanwhile (STEADY_STATE_WARMUP_SECONDS).
    warmupSeconds: withSteadyStateWarmup(load).warmupSeconds,
    stepsPerSearch: search.maxDoublings + 1 + search.maxBisections,
    topologies,
    connections: load.connections,
  };
}

/** Every load the run may send, in seconds each: warm-ups, every possible search step, every capacity run. */
function loads(schedule: Schedule): number[] {
  const perTopology = [
    ...(schedule.warmupSeconds > 0 ? [schedule.warmupSeconds] : []),
    ...Array<number>(schedule.stepsPerSearch).fill(schedule.stepSeconds),
  ];
  return [
    ...Array.from({ length: schedule.topologies }, () => perTopology).flat(),
    ...Array<number>(schedule.capacity.attempts).fill(schedule.capacitySeconds),
  ];
}

/** Bulk adds and purges enough for the longest run the schedule allows, so none repeats. */
export function planOperations(schedule: Schedule): OperationsPlan {
  const total = (name: 'bulk add' | 'purge') => loads(schedule).reduce((sum, s) => sum + operationsIn(name, s), 0);
  return { bulkAdds: total('bulk add'), purges: total('purge') };
}

/** What the report says about how it was run. */
export function scheduleNotes(schedule: Schedule, supplies: OperationSupplies): string[] {
  const wrapped = supplies.bulkAdds.wrapped + supplies.purges.wrapped;
  return [
    `mix by share of the total rate: executes 80 % (plain, Slack-compatible, GitHub-compatible with a real push event and a fresh X-GitHub-Delivery each, Sentry issue.created; 20 % each), ban checks 10 % (IP 8, email 2), admin reads 8 % (IP ban list, audit list, audit search "spam", archive list), ban writes 2 % (IP add and remove); on top of the total, at least one of each per load: a guild archive every ${OPERATION_INTERVAL_SECONDS.archive} s, an asset purge (a guild of 100 emojis) every ${OPERATION_INTERVAL_SECONDS.purge} s, a bulk add of 1000 users every ${OPERATION_INTERVAL_SECONDS['bulk add']} s, staggered within their intervals`,
    `open loop (measureMix, from the load generator's own process): each class at its rate, latency from when each request was due; connections per class enough for 100 ms of its rate, at least 2, at most ${schedule.connections}`,
    `a rate holds when executes' p99 < ${EXECUTE_P99_LIMIT_MS} ms, no request of any class fails and the deliveries waiting or running at the end are at most 2 s of executes; search: a discarded warm-up of ${schedule.warmupSeconds} s at the start rate, then doubling from it and bisecting to within 10 %, ${schedule.stepSeconds} s a step, queues emptied between steps; capacity run ${schedule.capacitySeconds} s at the highest rate that held, and when it fails again at ${Math.round(schedule.capacity.stepDown * 100)} % of its rate, ${schedule.capacity.attempts} runs at most`,
    'seeded: one guild with a text channel and webhook per format and 20,000 past messages, 100,000 IP bans, 2,000 email bans, 100,000 audit entries, an admin key with the ACLs the mix needs',
    'gateways: GATEWAY_PROCESSES=1 each, a separate instance per replica (its own caches, IP ban index and pools; connections spread over them as a balancer would), RATE_LIMITS_ENABLED=false (a few admin keys send hundreds of requests a second), every IP ban loaded before the load; workers with their default settings',
    'everything shares this machine (gateways, workers, PostgreSQL, Redis, the S3 store, the load generator): on a busy machine the figures are a smoke check, not a capacity figure',
    ...(wrapped > 0 ? [`the seeded bulk adds or purges ran out and were reused ${wrapped} times`] : []),
  ];
}
