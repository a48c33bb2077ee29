import type { AnyJobContract, QueueName } from '@switchboard/contracts';
import { commonSchema, env, loadConfig, s3Schema, z } from '@switchboard/config';
import { createLogger, type Logger } from '@switchboard/logger';
import type { SnowflakeGenerator, SnowflakeLease } from '@switchboard/snowflake';
import {
  DEFAULT_WORKER_TIMINGS,
  settlesWithin,
  startWorker,
  type FinalFailureHandlersFor,
  type HandlersFor,
  type AnyJobSchedule,
} from '@switchboard/queue';
import type { Registry } from '@switchboard/metrics';
import { checkReadiness, serveHealth, type ReadinessChecks } from './health.ts';
import { hasServiceNodeFlags, keepShortLivedObjectsYoung, SERVICE_NODE_FLAGS } from './heap.ts';
import { announceReady } from './ready.ts';
import { openResources, RESOURCE_CLOSE_TIMEOUT_MS, type Resources } from './resources.ts';
import { onStopSignals, SHUTDOWN_SLACK_MS } from './signals.ts';
import { leaseSnowflakeWorkerIdOnceRedisAnswers } from './snowflake-lease.ts';
import { workerMetrics } from './worker-metrics.ts';
import { watchCircuitBreakers } from './circuit-metrics.ts';
import { exportLeaseState, exportReadiness } from './state-metrics.ts';
import { redisTarget } from '@switchboard/redis';
import { stopTracing } from '@switchboard/telemetry';

/** Variables of every worker process. */
export const workerConfigSchema = commonSchema.extend({
  ...s3Schema.shape,
  /** Jobs one process runs at once. */
  WORKER_CONCURRENCY: env.int(1, 256).default(4),
  /** A crashed worker's jobs are retried after at most this long (plus one stalled check). */
  QUEUE_LOCK_DURATION_MS: env.int(100, 3_600_000).default(DEFAULT_WORKER_TIMINGS.lockDurationMs),
  QUEUE_STALLED_INTERVAL_MS: env.int(100, 3_600_000).default(DEFAULT_WORKER_TIMINGS.stalledIntervalMs),
  /** Stalls a job survives before it is failed; default: its contract's attempts. */
  QUEUE_MAX_STALLED_COUNT: env.int(0, 100).optional(),
  /** Time active jobs get to finish on SIGTERM; keep it under the orchestrator's grace period. */
  WORKER_SHUTDOWN_TIMEOUT_MS: env.int(0, 3_600_000).default(25_000),
  /**
   * `/healthz`, `/readyz` and `/metrics` of this worker; port 0 takes a free one (it is logged and
   * announced). Loopback unless told otherwise: metrics name queues and job counts, and nothing
   * but the machine's own probes should reach them until a deployment opens them on purpose
   * (compose sets `0.0.0.0` for Prometheus on its network).
   */
  HEALTH_HOST: z.string().min(1).default('127.0.0.1'),
  HEALTH_PORT: env.int(0, 65_535).default(0),
});

export type WorkerConfig = z.infer<typeof workerConfigSchema>;

export interface WorkerSetup<Contracts extends readonly AnyJobContract[]> {
  handlers: HandlersFor<Contracts>;
  /** Per job: what to do once it has failed for good (mark its row `failed` …). */
  onFinalFailure?: FinalFailureHandlersFor<Contracts>;
  /** Periodic jobs on this worker's queue (BullMQ job schedulers: one run per tick in all). */
  schedules?: readonly AnyJobSchedule[];
  /** Releases what the handlers hold beyond the shared resources, after the worker has stopped. */
  close?: () => Promise<void>;
}

/** What a worker's handler factory gets: its config, logger and the process's resources. */
export interface WorkerContext<Config> {
  config: Config;
  logger: Logger;
  resources: Resources;
  /**
   * Ids for the rows the handlers insert (audit entries …), under this process's leased worker
   * id. While the lease is lost they throw, so the job's attempt fails and is retried later.
   */
  ids: SnowflakeGenerator;
  /** The process's Prometheus registry (served on the health port): handlers add their own metrics to it. */
  metrics: Registry;
}

type HandlerFactory<Contracts extends readonly AnyJobContract[], Config> = (
  context: WorkerContext<Config>,
) => WorkerSetup<Contracts> | Promise<WorkerSetup<Contracts>>;

export interface WorkerServiceOptions<Contracts extends readonly AnyJobContract[], Config extends WorkerConfig> {
  /** Process name, for logs and Redis client names. */
  name: string;
  /** Every job this worker runs; they name the one queue it consumes. */
  contracts: Contracts;
  /** Handlers, or a function building them from the loaded config and the resources. */
  handlers: NoInfer<HandlersFor<Contracts> | HandlerFactory<Contracts, Config>>;
  /** The process's schema: workerConfigSchema or an extension of it. */
  config?: z.ZodType<Config>;
}

/**
 * A worker consumes one queue: the one its jobs name, so it is not given twice. Jobs of two
 * queues, or none, are refused here, before the process opens its pool, Redis and lease;
 * startWorker's registry (registerHandlers) would refuse them too, but only after all that.
 */
function queueOf(contracts: readonly AnyJobContract[]): QueueName {
  const queues = [...new Set(contracts.map((contract) => contract.queue))];
  if (queues.length !== 1) {
    throw new Error(`a worker's jobs must name one queue; these name ${queues.join(', ') || 'none'}`);
  }
  return queues[0]!;
}

export interface WorkerService<Config> {
  config: Config;
  logger: Logger;
  /** What SIGTERM does, without exiting. */
  shutdown(): Promise<void>;
}

/**
 * A worker's core is the database its handlers write and the Redis its jobs come from; S3 is
 * needed by some jobs only, and those fail and retry on their own while it is away, as do jobs
 * that make ids while the snowflake lease is lost (mostly when Redis is away for every replica).
 */
function workerChecks({ pool, redis, storage }: Resources, lease: SnowflakeLease): ReadinessChecks {
  return {
    core: { postgres: () => pool.query('SELECT 1'), redis: () => redis.ping() },
    optional: {
      s3: async () => {
        if (!(await storage.reachable())) throw new Error('bucket unreachable');
      },
      snowflake: async () => {
        if (!lease.held()) throw new Error('no worker id leased');
      },
    },
  };
}

/**
 * Entry point of a worker process: loads config (exits 78 when invalid), opens the pool,
 * Redis and S3 clients, leases a snowflake worker id, serves `/healthz` and `/readyz` on
 * HEALTH_PORT, starts the worker, announces readiness (with the health port) to a parent
 * listening on IPC and, on SIGTERM or SIGINT, stops within bounds (the lease is released once
 * no job runs) and exits 0. A second signal exits at once.
 */
export async function runWorkerService<
  const Contracts extends readonly AnyJobContract[],
  Config extends WorkerConfig = WorkerConfig,
>(options: WorkerServiceOptions<Contracts, Config>): Promise<WorkerService<Config>> {
  keepShortLivedObjectsYoung();
  const queue = queueOf(options.contracts);
  const schema = options.config ?? (workerConfigSchema as unknown as z.ZodType<Config>);
  const config = loadConfig(schema, undefined, options.name);
  const logger = createLogger(options.name, config.LOG_LEVEL);
  // Every launcher we ship passes the flags; a worker started by hand may not (the gateway
  // then serves from a cluster process that has them, a worker runs as it was started).
  if (!hasServiceNodeFlags(process.execArgv)) {
    logger.warn(
      { flags: SERVICE_NODE_FLAGS, execArgv: process.execArgv },
      `started without ${SERVICE_NODE_FLAGS.join(' ')}: under steady load V8's memory reducer will shrink the heap ~100 s in and full GCs follow; start it as node ${SERVICE_NODE_FLAGS.join(' ')} <entry>`,
    );
  }
  const resources = openResources(options.name, config, logger);
  const lease = await leaseSnowflakeWorkerIdOnceRedisAnswers(config, resources.redis, logger).catch(
    async (error: Error) => {
      logger.fatal({ reason: error.message }, 'no snowflake worker id leased; not starting');
      await resources.close();
      throw error;
    },
  );
  const metrics = workerMetrics(options.name, queue, resources.redis, config.REDIS_PREFIX);
  watchCircuitBreakers(metrics.registry, logger);
  const setup: WorkerSetup<Contracts> =
    typeof options.handlers === 'function'
      ? await options.handlers({ config, logger, resources, ids: lease.ids, metrics: metrics.registry })
      : { handlers: options.handlers };
  let draining = false;
  const health = await serveHealth({
    host: config.HEALTH_HOST,
    port: config.HEALTH_PORT,
    checks: workerChecks(resources, lease),
    checkTimeoutMs: config.READY_CHECK_TIMEOUT_MS,
    isDraining: () => draining,
    metrics: metrics.registry,
  });
  exportLeaseState(metrics.registry, lease);
  exportReadiness(metrics.registry, () =>
    checkReadiness(workerChecks(resources, lease), config.READY_CHECK_TIMEOUT_MS, () => draining),
  );
  const release = async () => {
    await metrics.close();
    await setup.close?.();
    // Before the resources close: the release goes through their Redis client.
    await settlesWithin(lease.release(), RESOURCE_CLOSE_TIMEOUT_MS);
    // The spans of the jobs that just finished go out beside the clients' close, in its bound.
    await Promise.all([resources.close(), settlesWithin(stopTracing(), RESOURCE_CLOSE_TIMEOUT_MS)]);
    await health.close();
  };
  const starting = startWorker({
    queue,
    contracts: options.contracts,
    handlers: setup.handlers,
    onFinalFailure: setup.onFinalFailure,
    schedules: setup.schedules,
    connection: redisTarget(config),
    redisPrefix: config.REDIS_PREFIX,
    concurrency: config.WORKER_CONCURRENCY,
    timings: {
      lockDurationMs: config.QUEUE_LOCK_DURATION_MS,
      stalledIntervalMs: config.QUEUE_STALLED_INTERVAL_MS,
      maxStalledCount: config.QUEUE_MAX_STALLED_COUNT,
    },
    logger,
    observer: metrics.observer,
  });
  let stopping: Promise<void> | undefined;
  const shutdown = (): Promise<void> => {
    draining = true;
    stopping ??= starting.then((worker) => worker.close(config.WORKER_SHUTDOWN_TIMEOUT_MS)).then(release);
    return stopping;
  };
  // Before the worker is up: it may take a job before startWorker returns, and a SIGTERM then
  // must still let that job finish rather than kill the process.
  onStopSignals(
    logger,
    async (signal) => {
      logger.info({ signal, timeoutMs: config.WORKER_SHUTDOWN_TIMEOUT_MS }, 'shutting down');
      await shutdown();
      return 0;
    },
    config.WORKER_SHUTDOWN_TIMEOUT_MS + SHUTDOWN_SLACK_MS,
  );
  await starting.catch(async (error: Error) => {
    logger.fatal({ reason: error.message }, 'worker failed to start');
    await release();
    throw error;
  });
  logger.info({ healthPort: health.port }, 'health endpoints listening');
  announceReady(options.name, { queue, healthPort: health.port });
  return { config, logger, shutdown };
}
