import { readdir, readFile } from 'node:fs/promises';
import { processTree } from '@switchboard/testkit/processes';
import { CLOCK_TICKS_PER_SECOND, processCpuTicks } from '../../process-cpu.ts';
import { pending, type BenchQueue } from '../webhook-support/queue.ts';

/** What is watched: a process with its descendants, or every process of a command (PostgreSQL's backends). */
export type Watched = { name: string; pid: number } | { name: string; command: string };

/** One reading: seconds since the sampler started, each queue's waiting + active jobs, each process's CPU so far and RSS now. */
export interface Sample {
  atSeconds: number;
  backlog: Record<string, number>;
  /** CPU seconds (user + system) since the sampler started, and resident MiB now (VmRSS, summed). */
  processes: Record<string, { cpuSeconds: number; rssMiB: number }>;
}

export interface Sampler {
  stop(): Promise<Sample[]>;
}

async function rssKiB(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => '');
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0);
}

/** Every pid whose command (`/proc/<pid>/stat`) is `command`. */
async function pidsOfCommand(command: string): Promise<number[]> {
  const pids = (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry));
  const found = await Promise.all(
    pids.map(async (pid) => ((await processCpuTicks(pid))?.command === command ? Number(pid) : null)),
  );
  return found.filter((pid): pid is number => pid !== null);
}

/** CPU ticks of each live pid of a watched entry, and their resident KiB together. */
async function read(watched: Watched): Promise<{ ticks: Map<number, number>; rssKiB: number }> {
  const pids = 'pid' in watched ? await processTree(watched.pid).catch(() => []) : await pidsOfCommand(watched.command);
  const ticks = new Map<number, number>();
  let resident = 0;
  await Promise.all(
    pids.map(async (pid) => {
      const found = await processCpuTicks(pid);
      if (!found) return;
      ticks.set(pid, found.ticks);
      resident += await rssKiB(pid);
    }),
  );
  return { ticks, rssKiB: resident };
}

/**
 * Reads every `intervalMs` (in the harness, which sends no load): each queue's waiting + active
 * jobs and each watched process's CPU and RSS from /proc. CPU is added up per pid between
 * readings, so a process that exits keeps what it had spent and a new one counts from zero.
 * `watched` is asked anew each time (the load generator's process changes between loads).
 */
export function startSampler(queues: readonly BenchQueue[], watched: () => Watched[], intervalMs = 1000): Sampler {
  const started = performance.now();
  const samples: Sample[] = [];
  const lastTicks = new Map<string, Map<number, number>>();
  const cpuTicks = new Map<string, number>();
  let reading: Promise<void> = Promise.resolve();

  const take = async () => {
    const backlog: Record<string, number> = {};
    await Promise.all(
      queues.map(async ({ queue }) => (backlog[queue.name] = await pending(queue).catch(() => Number.NaN))),
    );
    const processes: Sample['processes'] = {};
    await Promise.all(
      watched().map(async (entry) => {
        const { ticks, rssKiB: resident } = await read(entry);
        const before = lastTicks.get(entry.name) ?? new Map<number, number>();
        let spent = cpuTicks.get(entry.name) ?? 0;
        // The first reading of an entry is its zero.
        if (lastTicks.has(entry.name)) for (const [pid, now] of ticks) spent += now - (before.get(pid) ?? 0);
        lastTicks.set(entry.name, ticks);
        cpuTicks.set(entry.name, spent);
        processes[entry.name] = { cpuSeconds: spent / CLOCK_TICKS_PER_SECOND, rssMiB: resident / 1024 };
      }),
    );
    samples.push({ atSeconds: (performance.now() - started) / 1000, backlog, processes });
  };
  let busy = false;
  const tick = () => {
    // A reading still under way when the next is due: that one is skipped, not queued.
    if (busy) return;
    busy = true;
    // A failed reading (a process gone mid-read) leaves a gap in the series, not a failed run.
    reading = take()
      .catch(() => {})
      .finally(() => {
        busy = false;
      });
  };
  tick();
  const timer = setInterval(tick, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      await reading;
      await take();
      return samples;
    },
  };
}
