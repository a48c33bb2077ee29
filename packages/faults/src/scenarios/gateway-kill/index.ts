import { readFile } from 'node:fs/promises';
import { createPool } from '@switchboard/db';
import { createWebhookFixture, QUICK_TAKEOVER, waitFor } from '@switchboard/testkit';
import { deliveryLedger, failureReasons, ledgerProblems, settleDeliveries, watchDeliveries } from '../../deliveries/index.ts';
import { ScenarioProcesses, type RunningGateway } from '../../processes.ts';
import type { Scenario, ScenarioContext, ScenarioResult } from '../../types.ts';
import { sendExecutes, type SendTally } from '../worker-kill/send.ts';

export interface GatewayKillOptions {
  deliveries: number;
  /** SIGKILLs of one gateway process, spread evenly over the accepted executes. */
  kills: number;
  /** Executes in flight at once. */
  concurrency: number;
}

/** Gateway processes sharing the port, as `npm start` runs them on a 2-core machine. */
const PROCESSES = 2;
/** Generous on a loaded 2-core machine: draining is seconds; this only stops a stuck run. */
const settleTimeoutMs = (deliveries: number) => 120_000 + deliveries * 20;

/** The primary's live gateway processes. */
async function gatewayProcesses(gateway: RunningGateway): Promise<number[]> {
  const pid = gateway.process.child.pid!;
  const listed = await readFile(`/proc/${pid}/task/${pid}/children`, 'utf8').catch(() => '');
  return listed.split(' ').filter(Boolean).map(Number);
}

/** Replacements the primary has logged as listening. */
const replacementsListening = (gateway: RunningGateway) => gateway.process.stdout().split('\n').filter((line) => line.includes('a gateway process is back')).length;

/**
 * SIGKILLs one gateway process each time the accepted executes pass another 1/(kills+1) of
 * the run, and waits until the primary's replacement listens, so every kill finds both serving
 * (killing the survivor while its replacement still starts would leave nobody on the port).
 */
async function killAlongTheWay(gateway: RunningGateway, tally: SendTally, options: GatewayKillOptions): Promise<void> {
  for (let kill = 1; kill <= options.kills; kill++) {
    const threshold = Math.floor((options.deliveries * kill) / (options.kills + 1));
    await waitFor(async () => tally.accepted.length >= threshold, settleTimeoutMs(options.deliveries), 10);
    const [victim] = await gatewayProcesses(gateway);
    process.kill(victim!, 'SIGKILL');
    await waitFor(async () => replacementsListening(gateway) === kill, 30_000);
  }
}

async function runGatewayKill({ environment, log }: ScenarioContext, options: GatewayKillOptions): Promise<ScenarioResult> {
  const processes = new ScenarioProcesses(environment.processEnv);
  const pool = createPool({ connectionString: environment.databaseUrl, max: 2 });
  const watch = watchDeliveries(environment);
  try {
    const hook = await createWebhookFixture(pool);
    // LOG_LEVEL info: the primary's "is back" line says when a replacement listens.
    const gateway = await processes.gateway({ RATE_LIMITS_ENABLED: 'false', GATEWAY_PROCESSES: String(PROCESSES), LOG_LEVEL: 'info' });
    await processes.worker('webhook-worker', QUICK_TAKEOVER);
    const tally: SendTally = { accepted: [], refused: new Map() };
    const started = performance.now();
    log(`gateway-kill: ${options.deliveries} executes, ${options.kills} SIGKILLs of one of ${PROCESSES} gateway processes`);
    await Promise.all([
      sendExecutes(`${gateway.url}/v1/webhooks/${hook.webhookId}/${hook.token}`, options.deliveries, options.concurrency, 'fault', tally),
      killAlongTheWay(gateway, tally, options),
    ]);
    const failedJobs = await settleDeliveries(watch.queue, settleTimeoutMs(options.deliveries));
    const seconds = (performance.now() - started) / 1000;
    const ledger = await deliveryLedger({ pool, watch, environment }, hook, tally.accepted);
    const refused = [...tally.refused].map(([status, count]) => `${count}×${status}`).join(', ');
    // A request on the killed process loses its connection: the sender sees an error and
    // retries, as after any crash. An answer that never comes (the client gives up) or one that
    // is not an error or a 204 is a problem; so is anything accepted and then lost or doubled.
    const dishonest = [...tally.refused].filter(([status]) => !status.startsWith('error') || status.includes('TimeoutError') || status.includes('aborted'));
    const problems = [
      ...(dishonest.length > 0 ? [`answers other than 204 or a dropped connection: ${dishonest.map(([s, n]) => `${n}×${s}`).join(', ')}`] : []),
      ...ledgerProblems(ledger),
      ...(failedJobs > 0 ? [`${failedJobs} delivery jobs failed for good (${await failureReasons(watch.queue)})`] : []),
    ];
    return {
      scenario: 'gateway-kill',
      load: `${options.deliveries} plain executes (204), ${options.concurrency} at a time, ${PROCESSES} gateway processes`,
      fault: `one gateway process SIGKILLed ${options.kills}× mid-run, replaced by the primary each time`,
      figures: [
        ['accepted', ledger.accepted],
        ['connections dropped', tally.refused.size > 0 ? refused : 0],
        ['stored', ledger.stored],
        ['lost', ledger.lost],
        ['duplicated', ledger.duplicated],
        ['events', ledger.events],
        ['events missing', ledger.missingEvents],
        ['jobs failed', failedJobs],
        ['drained in', `${seconds.toFixed(1)} s`],
      ],
      problems,
    };
  } finally {
    await processes.stopAll();
    await watch.close();
    await pool.end();
  }
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
