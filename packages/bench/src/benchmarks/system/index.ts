import { QUEUES } from '@switchboard/contracts';
import { createPool } from '@switchboard/db';
import { createSnowflakeGenerator } from '@switchboard/snowflake';
import { seedOnce } from '../../seed-once.ts';
import { benchStorage } from '../../services.ts';
import type { Benchmark, BenchContext } from '../../types.ts';
import { openQueue } from '../webhook-support/queue.ts';
import { cleanUpRun } from './cleanup.ts';
import { sharedClasses } from './mix.ts';
import { operationSupplies } from './operations.ts';
import { executePayloads } from './payloads.ts';
import { systemReport, type TopologySearch } from './report.ts';
import { planOperations, scheduleFor, scheduleNotes } from './schedule.ts';
import { DEFAULT_CAPACITY, DEFAULT_SEARCH, holdCapacity, searchCapacity, type CapacityResult } from './search.ts';
import { seedOperations } from './seed-operations.ts';
import { seedGuild, SYSTEM_SEED_WORKER_ID } from './seed.ts';
import { stepRunner, type StepResult, type StepRunner } from './step.ts';
import { describeTopology, startSystem, type Topology } from './topology.ts';

/** One of each process against replicas: the scaling figure is the ratio of their maximum rates. */
const TOPOLOGIES: readonly Topology[] = [
  { gateways: 1, webhookWorkers: 1 },
  { gateways: 2, webhookWorkers: 2 },
];

/** One load through `runner`, logged, then the queues emptied before the next. */
async function tryRate(context: BenchContext, runner: StepRunner, rate: number, seconds: number): Promise<StepResult> {
  const step = await runner.run(rate, seconds);
  const executes = step.measurement.groups['executes']!;
  const drained = await runner.drain();
  context.log(
    `${rate}/s for ${seconds} s: executes p99 ${executes.latencyMs.p99.toFixed(1)} ms, ${step.verdict.passed ? 'holds' : `fails: ${step.verdict.reasons.join('; ')}`}; queues empty after ${Number.isNaN(drained) ? 'more than the limit' : `${drained.toFixed(1)} s`}`,
  );
  return step;
}

/**
 * The whole system under one mixed load (packages/bench/README.md#system): gateway, all four
 * workers, PostgreSQL, Redis and the S3 store on this machine; the largest total rate that
 * holds with one gateway and one webhook worker, that rate for the full duration, and the same
 * search with two of each.
 */
export const system: Benchmark = {
  name: 'system',
  description:
    'gateway + all four workers under a mixed load (executes of four formats, admin reads and writes, ban checks, archives, purges, bulk adds): largest rate with executes p99 < 50 ms, 1 vs 2 replicas',
  defaultDurationSeconds: 120,
  async run(context) {
    const env = await context.serviceEnv();
    const schedule = scheduleFor(context.load, DEFAULT_SEARCH, DEFAULT_CAPACITY, TOPOLOGIES.length);
    const pool = createPool({ connectionString: env['DATABASE_URL']!, max: 4, applicationName: 'bench-system' });
    const storage = benchStorage(env);
    const queues = Object.values(QUEUES).map((name) => openQueue(env, name));
    let purgeGuildIds: readonly string[] = [];
    // Registered before any process starts, so it runs once they have all stopped.
    context.cleanup.defer('system bench data', async () => {
      try {
        await cleanUpRun({ env, pool, storage, purgeGuildIds });
      } finally {
        await Promise.all(queues.map((queue) => queue.close()));
        storage.close();
        await pool.end();
      }
    });

    const ids = createSnowflakeGenerator(SYSTEM_SEED_WORKER_ID);
    const payloads = executePayloads();
    // Read only: seeded once per run. The operations' users and assets are used up: fresh each round.
    const guild = await seedOnce('system', env['DATABASE_URL']!, () =>
      seedGuild(
        pool,
        ids,
        payloads.map((payload) => payload.format),
        context.log,
      ),
    );
    const bodies = await seedOperations(pool, storage, ids, guild, planOperations(schedule), context.log);
    purgeGuildIds = bodies.purgeGuildIds;
    const classes = sharedClasses(guild, payloads);
    const supplies = operationSupplies(bodies);

    const searches: TopologySearch[] = [];
    let capacity: CapacityResult | undefined;
    for (const topology of TOPOLOGIES) {
      const running = await startSystem(context, env, topology, guild.adminKey);
      try {
        const runner = stepRunner(
          { system: running, classes, supplies, guild, queues, maxConnections: context.load.connections },
          QUEUES.webhookDeliveries,
        );
        if (schedule.warmupSeconds > 0) {
          context.log(`${describeTopology(topology)}: warm-up, discarded`);
          await tryRate(context, runner, DEFAULT_SEARCH.startRate, schedule.warmupSeconds);
        }
        context.log(`${describeTopology(topology)}: searching for the largest rate that holds`);
        const search = await searchCapacity(
          (rate) => tryRate(context, runner, rate, schedule.stepSeconds),
          DEFAULT_SEARCH,
        );
        searches.push({ topology, search });
        if (capacity === undefined) {
          // With no rate that held, from the lowest one tried; the report says whether any run held.
          const rate = search.maxRate || Math.min(...search.steps.map((step) => step.totalRate));
          capacity = await holdCapacity(
            (next) => {
              context.log(`${describeTopology(topology)}: capacity run at ${next}/s for ${schedule.capacitySeconds} s`);
              return tryRate(context, runner, next, schedule.capacitySeconds);
            },
            rate,
            schedule.capacity,
          );
        }
      } finally {
        await running.stop();
      }
    }
    return systemReport({
      capacity: capacity!,
      searches,
      settings: scheduleNotes(schedule, supplies),
    });
  },
};
