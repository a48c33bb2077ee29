export { hasServiceNodeFlags, keepShortLivedObjectsYoung, SERVICE_NODE_FLAGS, withServiceNodeFlags } from './heap.ts';
export { announceReady, isReadyMessage, READY_MESSAGE, type ReadyMessage } from './ready.ts';
export { openResources, RESOURCE_CLOSE_TIMEOUT_MS, type Resources } from './resources.ts';
export { onStopSignals, SHUTDOWN_SLACK_MS } from './signals.ts';
export { leaseSnowflakeWorkerId } from './snowflake-lease.ts';
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
