import type { Scenario } from '../types.ts';
import { bodyFlood } from './body-flood/index.ts';
import { chaos } from './chaos/index.ts';
import { jobKill } from './job-kill/index.ts';
import { gatewayKill } from './gateway-kill/index.ts';
import { dependencyOutage } from './outage/index.ts';
import { workerKill } from './worker-kill/index.ts';

/** `full`: the figures (npm run faults); `quick`: the same faults at a smaller size. */
export type Scale = 'full' | 'quick';

/** Every scenario, in the order the table lists them; `chaos` from its seed, for `chaosMinutes` (quick: 30 s). */
export function faultScenarios(
  scale: Scale,
  { seed, chaosMinutes }: { seed: number; chaosMinutes: number },
): Scenario[] {
  const full = scale === 'full';
  // The outages: Redis stopped 10 s, PostgreSQL and S3 blackholed 30 s (quick: 5 s each).
  const seconds = (full: number) => (scale === 'full' ? full : 5) * 1000;
  return [
    workerKill({ deliveries: full ? 10_000 : 1_000, kills: full ? 3 : 1, concurrency: 16 }),
    gatewayKill({ deliveries: full ? 5_000 : 1_000, kills: full ? 3 : 1, concurrency: 16 }),
    jobKill,
    dependencyOutage({ name: 'redis-stop', dependency: 'redis', mode: 'cut', outageMs: seconds(10) }),
    dependencyOutage({ name: 'redis-blackhole', dependency: 'redis', mode: 'blackhole', outageMs: seconds(10) }),
    dependencyOutage({ name: 'postgres-blackhole', dependency: 'postgres', mode: 'blackhole', outageMs: seconds(30) }),
    dependencyOutage({ name: 's3-blackhole', dependency: 's3', mode: 'blackhole', outageMs: seconds(30) }),
    dependencyOutage({ name: 'postgres-stop', dependency: 'postgres', mode: 'cut', outageMs: seconds(10) }),
    dependencyOutage({ name: 's3-stop', dependency: 's3', mode: 'cut', outageMs: seconds(10) }),
    // Issue 50: the real store process frozen (SIGSTOP) 10 s and 60 s, then continued, and
    // Redis and PostgreSQL restarted (quick: frozen 5 s, restarted after 5 s).
    ...(['redis', 'postgres', 's3'] as const).flatMap((dependency) =>
      (full ? [10, 60] : [5]).map((freezeSeconds) =>
        dependencyOutage({ name: `${dependency}-freeze`, dependency, mode: 'freeze', outageMs: freezeSeconds * 1000 }),
      ),
    ),
    dependencyOutage({ name: 'redis-restart', dependency: 'redis', mode: 'restart', outageMs: seconds(5) }),
    dependencyOutage({ name: 'postgres-restart', dependency: 'postgres', mode: 'restart', outageMs: seconds(5) }),
    // Issue 12: 40 concurrent 25 MiB bodies to webhook ids nobody has; then the same at a real
    // webhook, where every body is read and parsed.
    ...(['unknown', 'known'] as const).map((target) =>
      bodyFlood({
        concurrency: full ? 40 : 10,
        total: full ? 40 : 10,
        bodyBytes: (full ? 25 : 5) * 1024 * 1024,
        target,
      }),
    ),
    chaos({ seed, durationMs: full ? chaosMinutes * 60_000 : 30_000 }),
  ];
}
