import type { AddressInfo } from 'node:net';
import { answerClientErrors, createAppServer } from '@switchboard/http';
import { createLogger } from '@switchboard/logger';
import { createProducer, settlesWithin } from '@switchboard/queue';
import { announceReady, keepShortLivedObjectsYoung, leaseSnowflakeWorkerId, onStopSignals, openResources, RESOURCE_CLOSE_TIMEOUT_MS, SHUTDOWN_SLACK_MS } from '@switchboard/runtime';
import { createApp } from './app.ts';
import { loadGatewayConfig } from './config.ts';
import { trackForDrain } from './shutdown.ts';

keepShortLivedObjectsYoung();
const config = loadGatewayConfig();
const logger = createLogger('gateway', config.LOG_LEVEL);
const resources = openResources('gateway', config, logger);
const { pool, redis, storage } = resources;
// Before anything is served: no request may make an id under a worker id another process holds.
// Waiting for it also means rate limits work from the first request.
const snowflakeLease = await leaseSnowflakeWorkerId(config, redis, logger).catch((error: Error) => {
  logger.fatal({ reason: error.message }, 'no snowflake worker id leased; not starting');
  process.exit(1);
});
// Owned here so shutdown closes it: its `?wait=true` listener holds a connection of its own.
const producer = createProducer({ connection: redis, redisPrefix: config.REDIS_PREFIX, logger });

let draining = false;
const app = createApp({ config, logger, pool, redis, storage, snowflakeLease, producer, isDraining: () => draining });
const server = createAppServer(app);
answerClientErrors(server);
// Tracking is attached before the app, so it sees every response before the app can finish it.
const drain = trackForDrain(server, { timeoutMs: config.SHUTDOWN_TIMEOUT_MS, logger });
server.on('request', app);

/**
 * SIGTERM/SIGINT: stop accepting, let in-flight requests finish within SHUTDOWN_TIMEOUT_MS,
 * then close the queues, release the snowflake lease, close pool, Redis and S3, each within a
 * bound. Exit 0 when everything finished in time, 1 when connections had to be cut.
 */
onStopSignals(logger, async (signal) => {
  draining = true;
  logger.info({ signal }, 'shutting down');
  const drained = await drain();
  // Queues and the wait listener first: they use `redis`.
  await settlesWithin(producer.close(), RESOURCE_CLOSE_TIMEOUT_MS);
  // After the drain (no request mints ids any more), before `redis` closes.
  await settlesWithin(snowflakeLease.release(), RESOURCE_CLOSE_TIMEOUT_MS);
  await resources.close();
  logger.info({ drained }, 'gateway stopped');
  return drained ? 0 : 1;
}, config.SHUTDOWN_TIMEOUT_MS + SHUTDOWN_SLACK_MS);

server.on('error', (error) => {
  logger.fatal({ reason: error.message }, 'gateway could not listen');
  process.exit(1);
});
server.listen(config.PORT, config.HOST, () => {
  const { port } = server.address() as AddressInfo;
  logger.info({ host: config.HOST, port, publicBaseUrl: config.endpoints.api }, 'gateway listening');
  announceReady('gateway', { port });
});
