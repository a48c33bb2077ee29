// What a process that only supervises others needs (the gateway's primary): its Node flags,
// the ready message and bounded stop signals, without the pool, Redis, S3 and queue modules
// the package's index brings.
export {
  hasServiceNodeFlags,
  keepShortLivedObjectsYoung,
  SERVICE_ENV,
  SERVICE_NODE_FLAGS,
  serviceEnvFor,
  withServiceNodeFlags,
} from './heap.ts';
export { announceReady, isReadyMessage, READY_MESSAGE, type ReadyMessage } from './ready.ts';
export { onStopSignals, SHUTDOWN_SLACK_MS } from './signals.ts';
