import type { Measurement } from './measure.ts';
import { PacedLane, runLanes, summarise, type PacedRequest } from './paced-load.ts';

/** One class of a mixed load: its requests, rate and connections, and the group it counts in. */
export interface MixLane {
  name: string;
  /** Lanes of one group are also summarised together (all executes, whatever their format). */
  group: string;
  target: PacedRequest;
  requestsPerSecond: number;
  connections: number;
  /** PacedOptions.phase: where in its interval each request falls. */
  phase?: number;
}

export interface MixLoad {
  lanes: MixLane[];
  durationSeconds: number;
}

/** Each lane's figures, and each group's with its lanes' latencies pooled. */
export interface MixMeasurement {
  lanes: Record<string, Measurement>;
  groups: Record<string, Measurement>;
  /**
   * CPU seconds a second the generator's process spent while it sent and awaited answers (user +
   * system, process.cpuUsage): its own share of the machine, without its start-up.
   */
  generatorCpu: number;
}

/**
 * Several open-loop loads at once, each at its own rate over its own connections, sent from one
 * loop (measurePaced's, latency from when each request was due): a system under a mix of
 * requests rather than one route at a time. Every connection is open before the first request
 * is due.
 */
export async function measureMix(mix: MixLoad): Promise<MixMeasurement> {
  const lanes = mix.lanes.map(
    (lane) =>
      new PacedLane(lane.target, {
        requestsPerSecond: lane.requestsPerSecond,
        connections: lane.connections,
        durationSeconds: mix.durationSeconds,
        ...(lane.phase === undefined ? {} : { phase: lane.phase }),
      }),
  );
  // Connected before the clock starts: a mix opens a hundred connections or more, and their
  // handshakes all at once at the first due time would be charged to the first requests.
  await Promise.all(lanes.map((lane) => lane.connect()));
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const sentFor = await runLanes(lanes);
  const cpu = process.cpuUsage(cpuBefore);
  const generatorCpu = (cpu.user + cpu.system) / 1e6 / ((performance.now() - started) / 1000);
  const byGroup = new Map<string, PacedLane[]>();
  for (const [index, lane] of mix.lanes.entries()) {
    byGroup.set(lane.group, [...(byGroup.get(lane.group) ?? []), lanes[index]!]);
  }
  return {
    lanes: Object.fromEntries(mix.lanes.map((lane, index) => [lane.name, lanes[index]!.measurement(sentFor)])),
    groups: Object.fromEntries([...byGroup].map(([group, members]) => [group, summarise(members, sentFor)])),
    generatorCpu,
  };
}
