import {
  atEachKillPoint,
  executesUnderKills,
  ledgerFigures,
  type KillsOptions,
  type KillTargets,
} from '../executes-under-kills.ts';
import type { Scenario, ScenarioContext, ScenarioResult } from '../../types.ts';

export type WorkerKillOptions = KillsOptions;

/**
 * Kills the worker each time the accepted executes pass another 1/(kills+1) of the run, then
 * starts its successor as a supervisor would. Answers the delivery jobs active at each kill:
 * a kill with none in flight proved nothing, and the figure says so.
 */
function killAlongTheWay(options: WorkerKillOptions) {
  return ({ worker, queue, tally }: KillTargets): Promise<number[]> =>
    atEachKillPoint(tally, options, async () => {
      const inFlight = await queue.getActiveCount();
      await worker.kill();
      await worker.restart();
      return inFlight;
    });
}

async function runWorkerKill(context: ScenarioContext, options: WorkerKillOptions): Promise<ScenarioResult> {
  const announce = `worker-kill: ${options.deliveries} executes, ${options.kills} SIGKILLs of the webhook worker`;
  const run = await executesUnderKills(context, { ...options, gatewayEnv: {}, announce }, killAlongTheWay(options));
  return {
    scenario: 'worker-kill',
    load: `${options.deliveries} plain executes (204), ${options.concurrency} at a time, one gateway`,
    fault: `webhook-worker SIGKILLed ${options.kills}× mid-run, restarted each time`,
    figures: [
      ...ledgerFigures(run, 'refused'),
      ['in flight at kills', run.killed.join('/')],
      ['drained in', `${run.seconds.toFixed(1)} s`],
    ],
    problems: [...(run.refused !== 0 ? [`executes refused: ${run.refused}`] : []), ...run.problems],
  };
}

/**
 * At-least-once without duplicates under crashes: executes through HTTP while the webhook
 * worker is SIGKILLed and restarted; then every accepted execute must be stored exactly once
 * and announced on the `events` stream exactly once.
 */
export function workerKill(options: WorkerKillOptions): Scenario {
  return {
    name: 'worker-kill',
    description: 'deliveries while the webhook worker is SIGKILLed: 0 lost, 0 duplicated messages and events',
    run: (context) => runWorkerKill(context, options),
  };
}
