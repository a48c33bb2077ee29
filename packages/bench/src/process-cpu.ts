import { readFile } from 'node:fs/promises';

/** Linux clock ticks a second (USER_HZ): what /proc/<pid>/stat counts CPU time in. */
const CLOCK_TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) a process has used so far, from /proc (Linux only). */
export async function processCpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name, which may itself hold spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

/**
 * Runs `work` and answers its result with the CPU milliseconds `pid` spent per unit of it
 * (`units` read from the result): a figure that, unlike requests a second, hardly moves when
 * other processes compete for the cores.
 */
export async function cpuPerUnit<T>(pid: number, work: () => Promise<T>, units: (result: T) => number): Promise<{ result: T; cpuMsPerUnit: number }> {
  const before = await processCpuSeconds(pid);
  const result = await work();
  const spentMs = ((await processCpuSeconds(pid)) - before) * 1000;
  return { result, cpuMsPerUnit: spentMs / Math.max(1, units(result)) };
}
