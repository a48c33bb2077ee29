import { machineCpuPerUnit, type MachineCpu } from './machine-cpu.ts';
import { processCpuSeconds } from './process-cpu.ts';

/**
 * Runs `work` and answers its result with the CPU milliseconds `pid` spent per unit of it
 * (`units` read from the result): a figure that, unlike requests a second, hardly moves when
 * other processes compete for the cores. Also what the whole machine spent per unit, and
 * PostgreSQL's and Redis's part of that (see machineCpuPerUnit).
 */
export async function cpuPerUnit<T>(
  pid: number,
  work: () => Promise<T>,
  units: (result: T) => number,
): Promise<{ result: T; cpuMsPerUnit: number; machine: MachineCpu }> {
  const before = await processCpuSeconds(pid);
  const { result, machine } = await machineCpuPerUnit(work, units);
  const spentMs = ((await processCpuSeconds(pid)) - before) * 1000;
  return { result, cpuMsPerUnit: spentMs / Math.max(1, units(result)), machine };
}
