export {
  announceReady,
  hasServiceNodeFlags,
  isReadyMessage,
  keepShortLivedObjectsYoung,
  onStopSignals,
  READY_MESSAGE,
  SERVICE_ENV,
  SERVICE_NODE_FLAGS,
  serviceEnvFor,
  SHUTDOWN_SLACK_MS,
  withServiceNodeFlags,
  type ReadyMessage,
} from './lifecycle.ts';
export { openResources, RESOURCE_CLOSE_TIMEOUT_MS, type Resources } from './resources.ts';
export { leaseSnowflakeWorkerId, leaseSnowflakeWorkerIdOnceRedisAnswers } from './snowflake-lease.ts';
export {
  runWorkerService,
  workerConfigSchema,
  type WorkerConfig,
  type WorkerContext,
  type WorkerService,
  type WorkerServiceOptions,
  type WorkerSetup,
} from './worker-service.ts';
export {
  checkReadiness,
  serveHealth,
  type HealthCheck,
  type HealthServer,
  type Readiness,
  type ReadinessChecks,
} from './health.ts';
export { exportConnectionMetrics } from './connection-metrics.ts';
export { watchCircuitBreakers } from './circuit-metrics.ts';
export { exportLeaseState, exportReadiness } from './state-metrics.ts';
