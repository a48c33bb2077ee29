import { ratio } from '../../measure.ts';
import type { BenchReport, TargetResult } from '../../types.ts';
import type { Sample } from './sampler.ts';
import type { CapacityResult, SearchResult } from './search.ts';
import { EXECUTE_P99_LIMIT_MS, LOAD_GENERATOR, type StepResult } from './step.ts';
import { describeTopology, type Topology } from './topology.ts';

export interface TopologySearch {
  topology: Topology;
  search: SearchResult;
}

/** The report with the series behind its notes: the capacity run's samples and every search step. */
export interface SystemReport extends BenchReport {
  /** The run that held (or the last one tried), with every run's verdict before it. */
  capacity: {
    totalRate: number;
    seconds: number;
    passed: boolean;
    reasons: string[];
    samples: Sample[];
    runs: Array<{ totalRate: number; passed: boolean; reasons: string[] }>;
  };
  searches: Array<{
    topology: string;
    maxRate: number;
    failedAt: number | null;
    steps: Array<{
      totalRate: number;
      seconds: number;
      passed: boolean;
      reasons: string[];
      p99ByGroup: Record<string, number>;
    }>;
  }>;
}

const fixed = (value: number, digits = 1) => (Number.isFinite(value) ? value.toFixed(digits) : 'n/a');

/**
 * Per process over the samples where it appears (the load generator's process ends with its
 * load): CPU seconds a second and the largest RSS.
 */
export function processSummary(samples: readonly Sample[]): Array<{ name: string; cpu: number; peakRssMiB: number }> {
  const names = [...new Set(samples.flatMap((sample) => Object.keys(sample.processes)))];
  return names.flatMap((name) => {
    const present = samples.filter((sample) => sample.processes[name] !== undefined);
    const first = present[0];
    const last = present.at(-1);
    if (!first || !last || last.atSeconds <= first.atSeconds) return [];
    return [
      {
        name,
        cpu:
          (last.processes[name]!.cpuSeconds - first.processes[name]!.cpuSeconds) / (last.atSeconds - first.atSeconds),
        peakRssMiB: Math.max(...present.map((sample) => sample.processes[name]!.rssMiB)),
      },
    ];
  });
}

/** Per queue: its waiting + active jobs every `everySeconds` (the nearest sample), its peak and its last. */
export function backlogSummary(samples: readonly Sample[], everySeconds: number): string[] {
  const last = samples.at(-1);
  if (!last) return [];
  return Object.keys(last.backlog).map((queue) => {
    const series: number[] = [];
    for (let at = 0; at <= last.atSeconds + 0.5; at += everySeconds) {
      const nearest = samples.reduce((best, sample) =>
        Math.abs(sample.atSeconds - at) < Math.abs(best.atSeconds - at) ? sample : best,
      );
      series.push(nearest.backlog[queue] ?? Number.NaN);
    }
    const peak = Math.max(...samples.map((sample) => sample.backlog[queue] ?? 0));
    return `${queue}: every ${everySeconds} s ${series.join(', ')}; peak ${peak}, at the end ${last.backlog[queue]}`;
  });
}

function stepLine(step: StepResult): string {
  const executes = step.measurement.groups['executes']!;
  const verdict = step.verdict.passed ? 'holds' : `fails (${step.verdict.reasons.join('; ')})`;
  return `${step.totalRate}/s for ${step.seconds} s: executes p50 ${fixed(executes.latencyMs.p50)} / p99 ${fixed(executes.latencyMs.p99)} ms, ${verdict}`;
}

function capacityTargets(step: StepResult): TargetResult[] {
  const groups = Object.entries(step.measurement.groups).map(([group, measurement]) => ({
    target: `${group} (all)`,
    url: 'mixed',
    measurement,
  }));
  const lanes = Object.entries(step.measurement.lanes).map(([name, measurement]) => ({
    target: `  ${name}`,
    url: 'mixed',
    measurement,
  }));
  return [...groups, ...lanes];
}

export function systemReport(input: {
  capacity: CapacityResult;
  searches: TopologySearch[];
  settings: string[];
}): SystemReport {
  const { searches } = input;
  // holdCapacity stops at the run that held, so the last run is it, or with none the last tried.
  const capacity = input.capacity.runs.at(-1)!;
  const [single, scaled] = searches;
  // The generator's own reading leaves out its start-up, which the sampler's includes.
  const processes = processSummary(capacity.samples).map((p) => {
    const cpu = p.name === LOAD_GENERATOR ? capacity.measurement.generatorCpu : p.cpu;
    return `${p.name} ${fixed(cpu, 2)} CPU s/s, peak RSS ${fixed(p.peakRssMiB, 0)} MiB`;
  });
  const everySeconds = Math.max(1, Math.round(capacity.seconds / 12));
  const ratios: Record<string, number> = {};
  for (const { topology, search } of searches)
    ratios[`max total rate, ${describeTopology(topology)} (req/s)`] = search.maxRate;
  if (single && scaled) {
    ratios[`max rate, ${describeTopology(scaled.topology)} / ${describeTopology(single.topology)}`] = ratio(
      scaled.search.maxRate,
      single.search.maxRate,
    );
  }
  ratios['capacity: rate held for the whole run (req/s)'] = input.capacity.held?.totalRate ?? 0;
  ratios['executes p99 at the capacity rate (ms)'] = capacity.measurement.groups['executes']!.latencyMs.p99;
  return {
    benchmark: 'system',
    notes: [
      ...input.settings,
      ...searches.map(
        ({ topology, search }) =>
          `search, ${describeTopology(topology)}: highest rate that holds ${search.maxRate}/s${search.failedAt === undefined ? ' (no failure found)' : `, fails at ${search.failedAt}/s`}; ${search.steps.map(stepLine).join(' | ')}`,
      ),
      `capacity runs, ${describeTopology(single!.topology)}: ${input.capacity.runs.map(stepLine).join(' | ')} (the table's rows: ${input.capacity.held ? 'the run that held' : 'none held, the last run'}; p99 bound ${EXECUTE_P99_LIMIT_MS} ms)`,
      `backlog (waiting + active jobs) during the capacity run: ${backlogSummary(capacity.samples, everySeconds).join(' | ')}`,
      `processes during the capacity run (CPU seconds a second, user + system, with descendants; PostgreSQL and Redis are all their processes on the machine, RSS summed over them, shared memory counted in each): ${processes.join('; ')}`,
    ],
    targets: capacityTargets(capacity),
    ratios,
    capacity: {
      totalRate: capacity.totalRate,
      seconds: capacity.seconds,
      passed: capacity.verdict.passed,
      reasons: capacity.verdict.reasons,
      samples: capacity.samples,
      runs: input.capacity.runs.map((run) => ({
        totalRate: run.totalRate,
        passed: run.verdict.passed,
        reasons: run.verdict.reasons,
      })),
    },
    searches: searches.map(({ topology, search }) => ({
      topology: describeTopology(topology),
      maxRate: search.maxRate,
      failedAt: search.failedAt ?? null,
      steps: search.steps.map((step) => ({
        totalRate: step.totalRate,
        seconds: step.seconds,
        passed: step.verdict.passed,
        reasons: step.verdict.reasons,
        p99ByGroup: Object.fromEntries(
          Object.entries(step.measurement.groups).map(([group, m]) => [group, m.latencyMs.p99]),
        ),
      })),
    })),
  };
}
