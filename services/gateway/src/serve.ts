import cluster from 'node:cluster';
import type { AddressInfo } from 'node:net';
import { answerClientErrors, createAppServer } from '@switchboard/http';
import { createLogger } from '@switchboard/logger';
import { createMetricsRegistry, shareMetricsWithPrimary } from '@switchboard/metrics';
import { settlesWithin } from '@switchboard/queue';
import { stopTracing } from '@switchboard/telemetry';
import {
  announceReady,
  exportConnectionMetrics,
  exportLeaseState,
  keepShortLivedObjectsYoung,
  leaseSnowflakeWorkerIdOnceRedisAnswers,
  onStopSignals,
  openResources,
  RESOURCE_CLOSE_TIMEOUT_MS,
  SHUTDOWN_SLACK_MS,
  watchCircuitBreakers,
} from '@switchboard/runtime';
import { createApp } from './app.ts';
import type { GatewayConfig } from './config.ts';
import { isStopMessage } from './processes.ts';
import { openGatewayProducer } from './producer.ts';
import { trackForDrain } from './shutdown.ts';

/**
 * One gateway process: resources, snowflake lease, the app on PORT, and its shutdown. Alone, or
 * as one process of a cluster (processes.ts), which then stops it by message and serves the
 * merged metrics of all.
 */
export async function serveGateway(config: GatewayConfig): Promise<void> {
  keepShortLivedObjectsYoung();
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const resources = openResources('gateway', config, logger);
  const { pool, redis, storage } = resources;
  // Before anything is served: no request may make an id under a worker id another process holds.
  // Waiting for it also means rate limits work from the first request.
  // In a cluster the processes share the environment: only the first asks for SNOWFLAKE_WORKER_ID
  // (the others would be refused it and warn); every process leases an id of its own.
  const preferredWorkerId = cluster.isWorker && cluster.worker?.id !== 1 ? undefined : config.SNOWFLAKE_WORKER_ID;
  const snowflakeLease = await leaseSnowflakeWorkerIdOnceRedisAnswers(
    { ...config, SNOWFLAKE_WORKER_ID: preferredWorkerId },
    redis,
    logger,
  ).catch((error: Error) => {
    logger.fatal({ reason: error.message }, 'no snowflake worker id leased; not starting');
    process.exit(1);
  });
  // Owned here so shutdown closes it: its `?wait=true` listener holds a connection of its own.
  const { producer, close: closeProducer } = openGatewayProducer(config, redis, logger);

  let draining = false;
  const metrics = createMetricsRegistry('gateway');
  shareMetricsWithPrimary(metrics);
  exportConnectionMetrics(metrics);
  watchCircuitBreakers(metrics, logger);
  exportLeaseState(metrics, snowflakeLease);
  const app = createApp({
    config,
    logger,
    pool,
    redis,
    storage,
    snowflakeLease,
    producer,
    metrics,
    isDraining: () => draining,
  });
  const server = createAppServer(app);
  answerClientErrors(server);
  // Tracking is attached before the app, so it sees every response before the app can finish it.
  const drain = trackForDrain(server, { timeoutMs: config.SHUTDOWN_TIMEOUT_MS, logger });
  server.on('request', app);

  /**
   * SIGTERM/SIGINT: stop accepting, let in-flight requests finish within SHUTDOWN_TIMEOUT_MS,
   * then close the queues, release the snowflake lease, close pool, Redis and S3 and send the
   * spans still buffered, each within a bound. Exit 0 when everything finished in time, 1 when connections had to be cut.
   */
  const stop = onStopSignals(
    logger,
    async (signal) => {
      draining = true;
      logger.info({ signal }, 'shutting down');
      const drained = await drain();
      // Queues and the wait listener first: they use `redis`.
      await settlesWithin(closeProducer(), RESOURCE_CLOSE_TIMEOUT_MS);
      // After the drain (no request mints ids any more), before `redis` closes.
      await settlesWithin(snowflakeLease.release(), RESOURCE_CLOSE_TIMEOUT_MS);
      // The spans still buffered go out beside the clients' close, within the same bound.
      await Promise.all([resources.close(), settlesWithin(stopTracing(), RESOURCE_CLOSE_TIMEOUT_MS)]);
      logger.info({ drained }, 'gateway stopped');
      return drained ? 0 : 1;
    },
    config.SHUTDOWN_TIMEOUT_MS + SHUTDOWN_SLACK_MS,
  );

  if (cluster.isWorker) {
    // Told by the primary, or the primary is gone (killed): either way this process drains and ends.
    process.on('message', (message) => isStopMessage(message) && stop());
    process.on('disconnect', stop);
  }

  server.on('error', (error) => {
    logger.fatal({ reason: error.message }, 'gateway could not listen');
    process.exit(1);
  });
  // A process of a cluster binds the port itself beside the others (SO_REUSEPORT): the kernel
  // spreads the connections, and one whose process died is refused, not left hanging (processes.ts).
  const shared = cluster.isWorker;
  server.listen({ port: config.PORT, host: config.HOST, reusePort: shared, exclusive: shared }, () => {
    const { port } = server.address() as AddressInfo;
    logger.info({ host: config.HOST, port, publicBaseUrl: config.endpoints.api }, 'gateway listening');
    announceReady('gateway', { port });
  });
}
