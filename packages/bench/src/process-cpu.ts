import { readFile } from 'node:fs/promises';
import { processTree } from '@switchboard/testkit/processes';

/** Linux clock ticks a second (USER_HZ): what /proc counts CPU time in. */
export const CLOCK_TICKS_PER_SECOND = 100;

/** A process's command name and the CPU ticks (user + system) it has used so far; null once it is gone. */
export async function processCpuTicks(pid: number | string): Promise<{ command: string; ticks: number } | null> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (stat === null) return null;
  // Fields after the command name, which may itself hold spaces and parentheses.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    command: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
    ticks: Number(fields[11]) + Number(fields[12]),
  };
}

/**
 * CPU seconds (user + system) a process and its live descendants have used so far, from /proc
 * (Linux only): a gateway of several processes is measured whole, as one process is.
 */
export async function processCpuSeconds(pid: number): Promise<number> {
  // The tree starts with the process itself.
  const each = await Promise.all((await processTree(pid)).map((member) => processCpuTicks(member)));
  if (each[0] === null) throw new Error(`no process ${pid}`);
  return each.reduce((sum, found) => sum + (found?.ticks ?? 0), 0) / CLOCK_TICKS_PER_SECOND;
}

/**
 * A descendant of this process whose command line holds `fragment` (the embedded S3 store the
 * harness starts when no S3_ENDPOINT is given), if any.
 */
export async function ownDescendant(fragment: string): Promise<number | undefined> {
  for (const pid of await processTree(process.pid)) {
    const command = await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '');
    if (pid !== process.pid && command.includes(fragment)) return pid;
  }
  return undefined;
}
