import type { Queue } from 'bullmq';
import { createPool } from '@switchboard/db';
import { createWebhookFixture } from '@switchboard/testkit/webhooks';
import { QUICK_TAKEOVER } from '@switchboard/testkit/operations';
import { waitFor } from '@switchboard/testkit/wait';
import {
  deliveryLedger,
  failureReasons,
  ledgerProblems,
  settleDeliveries,
  watchDeliveries,
  type DeliveryLedger,
} from '../deliveries/index.ts';
import { ScenarioProcesses, type RunningGateway, type SupervisedWorker } from '../processes.ts';
import type { ScenarioContext, ScenarioResult } from '../types.ts';
import { sendExecutes, type SendTally } from './send-executes.ts';

export interface KillsOptions {
  deliveries: number;
  /** SIGKILLs, spread evenly over the accepted executes. */
  kills: number;
  /** Executes in flight at once. */
  concurrency: number;
}

/** What a kill acts on: the processes and what the executes have come back with so far. */
export interface KillTargets {
  gateway: RunningGateway;
  worker: SupervisedWorker;
  queue: Queue;
  tally: SendTally;
}

export interface ExecutesUnderKills<Killed> {
  ledger: DeliveryLedger;
  tally: SendTally;
  /** Answers other than 204 by status, `3×503, 2×error …`; 0 when there were none. */
  refused: string | 0;
  failedJobs: number;
  seconds: number;
  /** What the kills reported. */
  killed: Killed;
  /** Exactly-once broken (lost, doubled, unannounced) or jobs failed for good; empty when it held. */
  problems: string[];
}

/** Generous on a loaded 2-core machine: draining is seconds; this only stops a stuck run. */
const settleTimeoutMs = (deliveries: number) => 120_000 + deliveries * 20;

/** Runs `act(kill)` each time the accepted executes pass another 1/(kills+1) of the run. */
export async function atEachKillPoint<T>(
  tally: SendTally,
  options: KillsOptions,
  act: (kill: number) => Promise<T>,
): Promise<T[]> {
  const results: T[] = [];
  for (let kill = 1; kill <= options.kills; kill++) {
    const threshold = Math.floor((options.deliveries * kill) / (options.kills + 1));
    await waitFor(async () => tally.accepted.length >= threshold, settleTimeoutMs(options.deliveries), 10);
    results.push(await act(kill));
  }
  return results;
}

/**
 * Plain executes through HTTP into a gateway and one webhook worker while `kill` crashes one
 * of them; then, once every job settled, the ledger: every execute answered 204 must be stored
 * once and announced on the `events` stream once.
 */
export async function executesUnderKills<Killed>(
  { environment, log }: ScenarioContext,
  options: KillsOptions & { gatewayEnv: Record<string, string>; announce: string },
  kill: (targets: KillTargets) => Promise<Killed>,
): Promise<ExecutesUnderKills<Killed>> {
  const processes = new ScenarioProcesses(environment.processEnv);
  const pool = createPool({ connectionString: environment.databaseUrl, max: 2 });
  const watch = watchDeliveries(environment);
  try {
    const hook = await createWebhookFixture(pool);
    const gateway = await processes.gateway({ RATE_LIMITS_ENABLED: 'false', ...options.gatewayEnv });
    const worker = await processes.worker('webhook-worker', QUICK_TAKEOVER);
    const tally: SendTally = { accepted: [], refused: new Map() };
    const started = performance.now();
    log(options.announce);
    const [, killed] = await Promise.all([
      sendExecutes(
        `${gateway.url}/v1/webhooks/${hook.webhookId}/${hook.token}`,
        options.deliveries,
        options.concurrency,
        'fault',
        tally,
      ),
      kill({ gateway, worker, queue: watch.queue, tally }),
    ]);
    const failedJobs = await settleDeliveries(watch.queue, settleTimeoutMs(options.deliveries));
    const seconds = (performance.now() - started) / 1000;
    const ledger = await deliveryLedger({ pool, watch, environment }, hook, tally.accepted);
    const problems = [
      ...ledgerProblems(ledger),
      ...(failedJobs > 0 ? [`${failedJobs} delivery jobs failed for good (${await failureReasons(watch.queue)})`] : []),
    ];
    const refused =
      tally.refused.size > 0 ? [...tally.refused].map(([status, count]) => `${count}×${status}`).join(', ') : 0;
    return { ledger, tally, refused, failedJobs, seconds, killed, problems };
  } finally {
    await processes.stopAll();
    await watch.close();
    await pool.end();
  }
}

/**
 * The figures every such run reports, in table order: the executes (answers other than 204
 * under `refusedAs`), the ledger and the jobs; a scenario adds its own after them.
 */
export function ledgerFigures(run: ExecutesUnderKills<unknown>, refusedAs: string): ScenarioResult['figures'] {
  const { ledger } = run;
  return [
    ['accepted', ledger.accepted],
    [refusedAs, run.refused],
    ['stored', ledger.stored],
    ['lost', ledger.lost],
    ['duplicated', ledger.duplicated],
    ['events', ledger.events],
    ['events missing', ledger.missingEvents],
    ['events duplicated', ledger.duplicateEvents + ledger.strayEvents],
    ['jobs failed', run.failedJobs],
  ];
}
