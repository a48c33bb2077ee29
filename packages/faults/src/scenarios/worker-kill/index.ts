import type { Queue } from 'bullmq';
import { createPool } from '@switchboard/db';
import { createWebhookFixture, QUICK_TAKEOVER, waitFor } from '@switchboard/testkit';
import { deliveryLedger, failureReasons, ledgerProblems, settleDeliveries, watchDeliveries } from '../../deliveries/index.ts';
import { ScenarioProcesses, type SupervisedWorker } from '../../processes.ts';
import type { Scenario, ScenarioContext, ScenarioResult } from '../../types.ts';
import { sendExecutes, type SendTally } from './send.ts';

export interface WorkerKillOptions {
  deliveries: number;
  /** SIGKILLs of the webhook worker, spread evenly over the accepted executes. */
  kills: number;
  /** Executes in flight at once. */
  concurrency: number;
}

/** Generous on a loaded 2-core machine: draining is seconds; this only stops a stuck run. */
const settleTimeoutMs = (deliveries: number) => 120_000 + deliveries * 20;

/**
 * Kills the worker each time the accepted executes pass another 1/(kills+1) of the run, then
 * starts its successor as a supervisor would. Answers the delivery jobs active at each kill:
 * a kill with none in flight proved nothing, and the figure says so.
 */
async function killAlongTheWay(worker: SupervisedWorker, queue: Queue, tally: SendTally, options: WorkerKillOptions): Promise<number[]> {
  const inFlight: number[] = [];
  for (let kill = 1; kill <= options.kills; kill++) {
    const threshold = Math.floor((options.deliveries * kill) / (options.kills + 1));
    await waitFor(async () => tally.accepted.length >= threshold, settleTimeoutMs(options.deliveries), 10);
    inFlight.push(await queue.getActiveCount());
    await worker.kill();
    await worker.restart();
  }
  return inFlight;
}

async function runWorkerKill({ environment, log }: ScenarioContext, options: WorkerKillOptions): Promise<ScenarioResult> {
  const processes = new ScenarioProcesses(environment.processEnv);
  const pool = createPool({ connectionString: environment.databaseUrl, max: 2 });
  const watch = watchDeliveries(environment);
  try {
    const hook = await createWebhookFixture(pool);
    const gateway = await processes.gateway({ RATE_LIMITS_ENABLED: 'false' });
    const worker = await processes.worker('webhook-worker', QUICK_TAKEOVER);
    const tally: SendTally = { accepted: [], refused: new Map() };
    const started = performance.now();
    log(`worker-kill: ${options.deliveries} executes, ${options.kills} SIGKILLs of the webhook worker`);
    const [, inFlight] = await Promise.all([
      sendExecutes(`${gateway.url}/v1/webhooks/${hook.webhookId}/${hook.token}`, options.deliveries, options.concurrency, 'fault', tally),
      killAlongTheWay(worker, watch.queue, tally, options),
    ]);
    const failedJobs = await settleDeliveries(watch.queue, settleTimeoutMs(options.deliveries));
    const seconds = (performance.now() - started) / 1000;
    const ledger = await deliveryLedger({ pool, watch, environment }, hook, tally.accepted);
    const refused = [...tally.refused].map(([status, count]) => `${count}×${status}`).join(', ');
    const problems = [
      ...(tally.refused.size > 0 ? [`executes refused: ${refused}`] : []),
      ...ledgerProblems(ledger),
      ...(failedJobs > 0 ? [`${failedJobs} delivery jobs failed for good (${await failureReasons(watch.queue)})`] : []),
    ];
    return {
      scenario: 'worker-kill',
      load: `${options.deliveries} plain executes (204), ${options.concurrency} at a time, one gateway`,
      fault: `webhook-worker SIGKILLed ${options.kills}× mid-run, restarted each time`,
      figures: [
        ['accepted', ledger.accepted],
        ['refused', tally.refused.size > 0 ? refused : 0],
        ['stored', ledger.stored],
        ['lost', ledger.lost],
        ['duplicated', ledger.duplicated],
        ['events', ledger.events],
        ['events missing', ledger.missingEvents],
        ['events duplicated', ledger.duplicateEvents + ledger.strayEvents],
        ['jobs failed', failedJobs],
        ['in flight at kills', inFlight.join('/')],
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
