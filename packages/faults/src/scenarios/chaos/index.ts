import { setTimeout as sleep } from 'node:timers/promises';
import { createPool } from '@switchboard/db';
import { deliveryLedger, deliveryProblems, ledgerProblems, watchDeliveries } from '../../deliveries/index.ts';
import { ScenarioProcesses, type SupervisedWorker } from '../../processes.ts';
import type { Scenario, ScenarioContext, ScenarioResult } from '../../types.ts';
import { judgeOutage, judgementFigures, msOrNever } from '../outage/judge.ts';
import { INLINE_BODY_MAX_BYTES, seedMixedTargets } from '../outage/mixed.ts';
import { startTraffic } from '../outage/traffic.ts';
import { runSchedule, type FaultRecord } from './faults.ts';
import { jobRowProblems, settledJobRows } from './job-rows.ts';
import { allReadyAt, type Probe } from './readiness.ts';
import { CHAOS_WORKERS, chaosSchedule, faultCounts, type ChaosWorker } from './schedule.ts';
import { startChaosStores } from './stores.ts';
import { chaosTraffic } from './traffic.ts';

export interface ChaosOptions {
  /** Replays a run: the same seed gives the same faults in the same order. */
  seed: number;
  /** How long faults are started for (ms). */
  durationMs: number;
  /** Every answer within this, and full service this soon after the last fault (ms); wider for the bounded run inside a busy `npm test`. */
  answerMs?: number;
  recoveryMs?: number;
}

/** The issue's bounds: every answer within 5 s, full service within 5 s of the last fault. */
const ANSWER_MS = 5_000;
const RECOVERY_MS = 5_000;
const TRAFFIC = { clients: 6, paceMs: 50 };
/** Healthy traffic before the first fault, and the quiet tail after the last. */
const BEFORE_MS = 3_000;
const TAIL_MS = 10_000;
/** Accepted deliveries and admin jobs must be settled this long after the faults. */
const SETTLE_TIMEOUT_MS = 120_000;

/**
 * A row whose job was never added (its gateway was killed between the insert and the enqueue)
 * is failed by its worker's sweep once this old: soon enough to be judged within the settle
 * time. The workers keep their default job locks: a store stall shorter than a lock stalls no
 * job, as in production, and a killed worker's jobs are taken over within the settle time.
 */
const ROW_SWEEP = { QUEUED_ROW_ORPHAN_AGE_MS: '10000', QUEUED_ROW_SWEEP_INTERVAL_MS: '1000' };

/** Every process a supervisor runs, each with its own health port. */
function readinessProbes(gatewayUrl: string, workers: Record<ChaosWorker, SupervisedWorker>): () => Probe[] {
  return () => [
    { name: 'gateway', url: `${gatewayUrl}/readyz` },
    ...Object.entries(workers).map(([name, worker]) => ({
      name,
      url: `http://127.0.0.1:${worker.current().ready['healthPort'] as number}/readyz`,
    })),
  ];
}

async function runChaos(context: ScenarioContext, options: ChaosOptions): Promise<ScenarioResult> {
  const { log } = context;
  const schedule = chaosSchedule(options.seed, options.durationMs);
  const stores = await startChaosStores(context);
  const { environment } = stores;
  const processes = new ScenarioProcesses(environment.processEnv);
  // The scenario's own connections observe the faults; they judge only once the faults are over.
  const pool = createPool({ connectionString: environment.databaseUrl, max: 2 });
  const watch = watchDeliveries(environment);
  try {
    const targets = await seedMixedTargets(pool, 'fault-chaos');
    const gateway = await processes.gateway({
      GATEWAY_PROCESSES: '2',
      // The primary's "is back" line says when a killed process's replacement listens.
      LOG_LEVEL: 'info',
      RATE_LIMITS_ENABLED: 'false',
      WEBHOOK_INLINE_BODY_MAX_BYTES: String(INLINE_BODY_MAX_BYTES),
      ADMIN_JOB_WAIT_MS: '0',
    });
    const started = await Promise.all(
      CHAOS_WORKERS.map((name) => processes.worker(name, name === 'webhook-worker' ? {} : ROW_SWEEP)),
    );
    const workers = Object.fromEntries(CHAOS_WORKERS.map((name, index) => [name, started[index]!])) as Record<
      ChaosWorker,
      SupervisedWorker
    >;

    const accepted: string[] = [];
    const kinds = chaosTraffic({ ...targets, gatewayUrl: gateway.url, accepted });
    let stopped = false;
    const traffic = startTraffic(kinds, {
      ...TRAFFIC,
      abandonAfterMs: (options.answerMs ?? ANSWER_MS) + 10_000,
      stop: () => stopped,
      outageBegun: () => true,
    });
    await sleep(BEFORE_MS);
    log(`chaos: seed ${options.seed}, ${schedule.length} faults over ${options.durationMs / 1000} s`);
    const faults: FaultRecord[] = await runSchedule(schedule, { stores, gateway, workers }, traffic.clock, log);
    const window = {
      startMs: faults[0]?.startMs ?? traffic.clock(),
      endMs: Math.max(0, ...faults.map((f) => f.endMs)),
    };
    const [readiness] = await Promise.all([
      allReadyAt(readinessProbes(gateway.url, workers), traffic.clock, TAIL_MS),
      sleep(TAIL_MS),
    ]);
    stopped = true;
    const samples = await traffic.done;

    const expected = new Map(kinds.map((kind) => [kind.name, kind.expected]));
    const bounds = {
      answerMs: options.answerMs ?? ANSWER_MS,
      recoveryMs: options.recoveryMs ?? RECOVERY_MS,
      droppedAllowed: true,
    };
    const judgement = judgeOutage(samples, expected, window, bounds);
    const readyMs = readiness.at === null ? null : Math.max(0, readiness.at - window.endMs);
    const settleProblems = await deliveryProblems(watch.queue, SETTLE_TIMEOUT_MS);
    const rows = await settledJobRows(
      pool,
      { redis: watch.redis, redisPrefix: environment.redisPrefix },
      SETTLE_TIMEOUT_MS,
    );
    const ledger = await deliveryLedger({ pool, watch, environment }, targets.hook, accepted);
    return {
      scenario: 'chaos',
      load: `${kinds.map((kind) => kind.name).join(', ')}; ${TRAFFIC.clients} clients`,
      fault: `seed ${options.seed}: ${faultCounts(schedule)} over ${options.durationMs / 1000} s`,
      figures: [
        ...judgementFigures(samples.length, judgement, 'answers'),
        ['dropped', judgement.dropped],
        ['ready', msOrNever(readyMs)],
        ['accepted', ledger.accepted],
        ['lost', ledger.lost],
        ['duplicated', ledger.duplicated],
        ['events missing', ledger.missingEvents],
        ['events duplicated', ledger.duplicateEvents + ledger.strayEvents],
        ['admin jobs', rows.summary],
      ],
      problems: [
        ...judgement.problems,
        ...(readyMs === null || readyMs > bounds.recoveryMs
          ? [
              `not every /readyz answered 200 within ${bounds.recoveryMs} ms of the last fault (${readiness.notReady.join(', ') || `ready after ${Math.round(readyMs ?? 0)} ms`})`,
            ]
          : []),
        ...ledgerProblems(ledger),
        ...settleProblems,
        ...jobRowProblems(rows, SETTLE_TIMEOUT_MS),
      ],
    };
  } finally {
    await processes.stopAll();
    await watch.close();
    await pool.end();
    await stores.close();
  }
}

/**
 * Random stalls and restarts of the stores and SIGKILLs of gateway processes and workers, from
 * a seed, under mixed traffic: every answer bounded and honest, full service soon after the
 * last fault, every accepted execute stored and announced once, every admin job finished.
 */
export function chaos(options: ChaosOptions): Scenario {
  return {
    name: 'chaos',
    description: `seeded random store stalls/restarts and process kills for ${options.durationMs / 1000} s (FAULTS_SEED, FAULTS_CHAOS_MINUTES)`,
    run: (context) => runChaos(context, options),
  };
}
