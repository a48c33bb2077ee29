import './provided-context.ts';
export {
  describeServices,
  startTestServices,
  type ServiceSource,
  type StartedServices,
  type TestServices,
} from './services/index.ts';
export { createTestDatabase, prepareTemplateDatabase, uniqueTag } from './isolation.ts';
export {
  provisionEnvironment,
  useTestEnvironment,
  type ProvisionedEnvironment,
  type TestEnvironment,
} from './environment.ts';
export {
  closedPort,
  serveOnFreePort,
  silentServer,
  type Listenable,
  type SilentServer,
  type ServedApp,
} from './network.ts';
export {
  childPids,
  isAlive,
  processTree,
  processTreeMemoryMiB,
  spawnNode,
  spawnProgram,
  spawnService,
  ServiceExitError,
  type ExitStatus,
  type NodeProcess,
  type NodeProcessOptions,
  type ServiceProcess,
} from './processes.ts';
export { call, type Answer, type CallOptions } from './http.ts';
export { reserveFixtureWorkerIds, testSnowflakeWorkerId } from './ids.ts';
export {
  channelEvents,
  createWebhookFixture,
  deliveriesSettled,
  deliveryJobs,
  messagesOf,
  webhookDeliveriesQueue,
  webhookMessages,
  type StoredRow,
  type WebhookFixture,
} from './webhooks.ts';
export {
  ARCHIVE_FIXTURE_HOSTILE_TEXT,
  ARCHIVE_FIXTURE_PNG,
  createArchiveGuildFixture,
  createGuildFixture,
  createPurgeGuildFixture,
} from './guilds.ts';
export { ancestorsOf, startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from './otlp-receiver.ts';
export { useTestPool } from './pool.ts';
export { storageFor, storedObjects } from './storage.ts';
export { unzip } from './unzip.ts';
export { waitFor } from './wait.ts';
export { metricValue, parseMetrics, scrapeMetrics, type MetricSample } from './metrics.ts';
export {
  killMidOperation,
  QUICK_TAKEOVER,
  type KillMidOperation,
  type OperationStatusRead,
} from './operations.ts';
export { useWorker, useWorkersPerTest, type RunningWorker } from './use-worker.ts';
export {
  deliverAgain,
  enqueueOperation,
  finishedOperation,
  operationStatus,
  useJobStores,
  type JobStores,
} from './jobs.ts';
export { startFaultProxy, type FaultMode, type FaultProxy } from './fault-proxy.ts';
export { startPgBouncer, type RunningPgBouncer } from './pgbouncer.ts';
export { holdRowLock, type HeldLock } from './row-lock.ts';
export { SENTINEL_MASTER_NAME, startSentinels, type RunningSentinels } from './sentinel.ts';
export { frozenClock, type TestClock } from './clock.ts';
export { watchEventLoop, type EventLoopWatch } from './event-loop.ts';
export { startOwnedStore, type OwnedStore, type StoreKind } from './owned-store/index.ts';
export { useOwnedStore } from './owned-store/use.ts';
export { startRedisCluster, type RunningRedisCluster } from './redis-cluster.ts';
