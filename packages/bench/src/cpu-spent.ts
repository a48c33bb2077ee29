import { machineCpuPerUnit } from './machine-cpu.ts';

/** CPU seconds of the whole machine and of its parts while some work ran (Linux /proc). */
export interface CpuSpent {
  machine: number;
  postgres: number;
  redis: number;
  /** Each watched process with its descendants (all threads: zlib's deflate runs on its pool). */
  parts: Record<string, number>;
}

/**
 * Runs `work` and answers what the machine, PostgreSQL, Redis and each of `parts` (a reading of
 * CPU seconds so far) spent meanwhile: where a benchmark's time goes, side by side with its
 * baseline's. A process that exits during the work takes its reading with it.
 */
export async function cpuSpentOn<T>(
  work: () => Promise<T>,
  parts: Record<string, () => Promise<number>>,
): Promise<{ result: T; cpu: CpuSpent }> {
  const read = () => Promise.all(Object.values(parts).map((seconds) => seconds().catch(() => Number.NaN)));
  let before: number[] = [];
  let after: number[] = [];
  // The parts are read inside the machine's span, so what they count is part of what it counts
  // (the machine's own snapshot, a scan of /proc, costs this process CPU outside them).
  const { result, machine } = await machineCpuPerUnit(
    async () => {
      before = await read();
      const done = await work();
      after = await read();
      return done;
    },
    () => 1,
  );
  const names = Object.keys(parts);
  return {
    result,
    cpu: {
      machine: machine.totalMs / 1000,
      postgres: machine.services.postgres / 1000,
      redis: machine.services.redis / 1000,
      parts: Object.fromEntries(names.map((name, index) => [name, after[index]! - before[index]!])),
    },
  };
}

/**
 * `12.3 CPU s (postgres 4.1, redis 0.0, archive-worker 6.0, …, the rest 0.9)`, or per unit of
 * work in milliseconds (`70.8 ms per operation (…)`). The rest is every other process on the
 * machine, the load generator's among them.
 */
export function describeCpu(cpu: CpuSpent, per?: { units: number; unit: string }): string {
  const scale = per ? 1000 / Math.max(1, per.units) : 1;
  const digits = per ? 2 : 1;
  const named = Object.entries(cpu.parts).filter(([, seconds]) => Number.isFinite(seconds));
  const rest = cpu.machine - cpu.postgres - cpu.redis - named.reduce((sum, [, seconds]) => sum + seconds, 0);
  const parts = [['postgres', cpu.postgres], ['redis', cpu.redis], ...named, ['the rest', rest]] as const;
  const listed = parts.map(([name, seconds]) => `${name} ${(seconds * scale).toFixed(digits)}`).join(', ');
  const total = (cpu.machine * scale).toFixed(digits);
  return per ? `${total} ms per ${per.unit} (${listed})` : `${total} CPU s (${listed})`;
}

/** This process's own CPU seconds (every thread), from Node. */
export async function ownCpuSeconds(): Promise<number> {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
}
