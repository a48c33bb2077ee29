import { readFile } from 'node:fs/promises';

/** Linux clock ticks a second (USER_HZ): what /proc counts CPU time in. */
export const CLOCK_TICKS_PER_SECOND = 100;

/** A process's command name and the CPU ticks (user + system) it has used so far; null once it is gone. */
export async function processCpuTicks(pid: number | string): Promise<{ command: string; ticks: number } | null> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (stat === null) return null;
  // Fields after the command name, which may itself hold spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { command: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')), ticks: Number(fields[11]) + Number(fields[12]) };
}

/** CPU seconds (user + system) a process has used so far, from /proc (Linux only). */
export async function processCpuSeconds(pid: number): Promise<number> {
  const found = await processCpuTicks(pid);
  if (found === null) throw new Error(`no process ${pid}`);
  return found.ticks / CLOCK_TICKS_PER_SECOND;
}
