export { tracingConfigSchema, tracingRequested, type TracingConfig } from './config.ts';
export { currentRequestId, withRequestId } from './request-id.ts';
export {
  startTracing,
  stopTracing,
  tracedProcess,
  tracedSend,
  traceLogFields,
  tracingOn,
  type JobTraceInfo,
  type TraceCarrier,
} from './tracing.ts';
