import { readdir, readFile } from 'node:fs/promises';
import { CLOCK_TICKS_PER_SECOND, processCpuTicks } from './process-cpu.ts';

/**
 * The services every target's durable work lands on, by the command name the kernel reports
 * (`/proc/<pid>/stat`): all their processes, whichever instance (the machine's own or one the
 * run started) served the run.
 */
const SERVICE_COMMANDS = { postgres: 'postgres', redis: 'redis-server' } as const;
export type ServiceName = keyof typeof SERVICE_COMMANDS;
const SERVICE_OF_COMMAND = new Map<string, ServiceName>(
  Object.entries(SERVICE_COMMANDS).map(([name, command]) => [command, name as ServiceName]),
);

/** CPU milliseconds per unit of work over one measured run, on the whole machine. */
export interface MachineCpu {
  /** Every core's busy time (user, nice, system, irq, softirq; not idle, I/O wait or steal). */
  totalMs: number;
  /** Of which each service's processes. */
  services: Record<ServiceName, number>;
}

interface Snapshot {
  busyTicks: number;
  /** CPU ticks so far of each service process, by pid. */
  services: Record<ServiceName, Map<number, number>>;
}

async function busyTicks(): Promise<number> {
  const line = (await readFile('/proc/stat', 'utf8')).split('\n', 1)[0]!;
  const [user, nice, system, , , irq, softirq] = line.trim().split(/\s+/).slice(1).map(Number) as number[];
  return user! + nice! + system! + irq! + softirq!;
}

async function snapshot(): Promise<Snapshot> {
  const services: Snapshot['services'] = { postgres: new Map(), redis: new Map() };
  const pids = (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry));
  await Promise.all(
    pids.map(async (pid) => {
      const found = await processCpuTicks(pid);
      const service = found && SERVICE_OF_COMMAND.get(found.command);
      if (found && service) services[service].set(Number(pid), found.ticks);
    }),
  );
  return { busyTicks: await busyTicks(), services };
}

/** Ticks a service spent between two snapshots: a process that started meanwhile counts from zero. */
function serviceTicks(before: Map<number, number>, after: Map<number, number>): number {
  let ticks = 0;
  for (const [pid, now] of after) ticks += now - (before.get(pid) ?? 0);
  return ticks;
}

/**
 * Runs `work` and answers, per unit of it, the CPU the whole machine spent and how much of it
 * went to PostgreSQL and Redis (Linux /proc). What a server does per request is only part of a
 * durable write's price: the database and Redis do the rest on the same cores, and a ratio
 * against a baseline that writes nothing is bounded by it. A service process that exits during
 * the run loses its ticks (pooled connections do not exit), so the services' share is a floor.
 */
export async function machineCpuPerUnit<T>(
  work: () => Promise<T>,
  units: (result: T) => number,
): Promise<{ result: T; machine: MachineCpu }> {
  const before = await snapshot();
  const result = await work();
  const after = await snapshot();
  const perUnit = (ticks: number) => (ticks * 1000) / CLOCK_TICKS_PER_SECOND / Math.max(1, units(result));
  return {
    result,
    machine: {
      totalMs: perUnit(after.busyTicks - before.busyTicks),
      services: {
        postgres: perUnit(serviceTicks(before.services.postgres, after.services.postgres)),
        redis: perUnit(serviceTicks(before.services.redis, after.services.redis)),
      },
    },
  };
}

/** `1.234 (postgres 0.300, redis 0.120)`: a MachineCpu for a note. */
export function formatMachineCpu({ totalMs, services }: MachineCpu): string {
  return `${totalMs.toFixed(3)} (postgres ${services.postgres.toFixed(3)}, redis ${services.redis.toFixed(3)})`;
}
