import { childPids } from '@switchboard/testkit/processes';
import { waitFor } from '@switchboard/testkit/wait';
import type { RunningGateway } from '../../processes.ts';
import type { Scenario, ScenarioContext, ScenarioResult } from '../../types.ts';
import {
  atEachKillPoint,
  executesUnderKills,
  ledgerFigures,
  type KillsOptions,
  type KillTargets,
} from '../executes-under-kills.ts';

export type GatewayKillOptions = KillsOptions;

/** Gateway processes sharing the port, as `npm start` runs them on a 2-core machine. */
const PROCESSES = 2;

/** Replacements the primary has logged as listening (it logs at LOG_LEVEL info). */
export const replacementsListening = (gateway: RunningGateway) =>
  gateway.process
    .stdout()
    .split('\n')
    .filter((line) => line.includes('a gateway process is back')).length;

/**
 * SIGKILLs one gateway process at each kill point and waits until the primary's replacement
 * listens, so every kill finds both serving (killing the survivor while its replacement still
 * starts would leave nobody on the port).
 */
function killAlongTheWay(options: GatewayKillOptions) {
  return ({ gateway, tally }: KillTargets): Promise<unknown[]> =>
    atEachKillPoint(tally, options, async (kill) => {
      const [victim] = await childPids(gateway.process.child.pid!);
      process.kill(victim!, 'SIGKILL');
      await waitFor(async () => replacementsListening(gateway) === kill, 30_000);
    });
}

/**
 * A request the killed process held loses its connection: the sender sees an error and
 * retries, as after any crash. An answer that never comes (the client gave up) or that is not
 * a 204 or a dropped connection is not honest.
 */
function dishonestAnswers(refused: Map<string, number>): string[] {
  const wrong = [...refused].filter(([status]) => !status.startsWith('error') || status.includes('aborted'));
  return wrong.length > 0
    ? [
        `answers other than 204 or a dropped connection: ${wrong.map(([status, count]) => `${count}×${status}`).join(', ')}`,
      ]
    : [];
}

async function runGatewayKill(context: ScenarioContext, options: GatewayKillOptions): Promise<ScenarioResult> {
  const announce = `gateway-kill: ${options.deliveries} executes, ${options.kills} SIGKILLs of one of ${PROCESSES} gateway processes`;
  // LOG_LEVEL info: the primary's "is back" line says when a replacement listens.
  const gatewayEnv = { GATEWAY_PROCESSES: String(PROCESSES), LOG_LEVEL: 'info' };
  const run = await executesUnderKills(context, { ...options, gatewayEnv, announce }, killAlongTheWay(options));
  return {
    scenario: 'gateway-kill',
    load: `${options.deliveries} plain executes (204), ${options.concurrency} at a time, ${PROCESSES} gateway processes`,
    fault: `one gateway process SIGKILLed ${options.kills}× mid-run, replaced by the primary each time`,
    figures: [...ledgerFigures(run, 'connections dropped'), ['drained in', `${run.seconds.toFixed(1)} s`]],
    problems: [...dishonestAnswers(run.tally.refused), ...run.problems],
  };
}

/**
 * A gateway process crashing under load (GATEWAY_PROCESSES): the primary replaces it, the
 * other keeps answering, the requests it held lose their connection (never a hang), and every
 * execute answered 204 is stored and announced exactly once.
 */
export function gatewayKill(options: GatewayKillOptions): Scenario {
  return {
    name: 'gateway-kill',
    description: 'deliveries while one of two gateway processes is SIGKILLed: 0 lost or duplicated, no hung answer',
    run: (context) => runGatewayKill(context, options),
  };
}
