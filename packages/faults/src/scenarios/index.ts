import type { Scenario } from '../types.ts';
import { jobKill } from './job-kill/index.ts';
import { workerKill } from './worker-kill/index.ts';

/** `full`: the figures (npm run faults); `quick`: the same faults at a smaller size. */
export type Scale = 'full' | 'quick';

/** Every scenario, in the order the table lists them. */
export function faultScenarios(scale: Scale): Scenario[] {
  const full = scale === 'full';
  return [workerKill({ deliveries: full ? 10_000 : 1_000, kills: full ? 3 : 1, concurrency: 16 }), jobKill];
}
