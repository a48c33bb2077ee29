import { loadConfig } from '@switchboard/config';
import { tracingConfigSchema, tracingRequested } from './config.ts';

/** W3C trace context of a job's enqueue, as the job carries it. */
export interface TraceCarrier {
  traceparent?: string;
  tracestate?: string;
}

export interface JobTraceInfo {
  jobId: string;
  jobName: string;
  /** Failed attempts so far. */
  attemptsMade: number;
}

/** What the SDK module gives back once started; the functions below delegate to it. */
export interface Tracing {
  logFields(): { trace_id: string; span_id: string } | undefined;
  send<T>(
    queue: string,
    jobName: string,
    work: (carrier: TraceCarrier, sent: (jobId: string) => void) => Promise<T>,
  ): Promise<T>;
  process<T>(queue: string, job: JobTraceInfo, carrier: TraceCarrier | undefined, work: () => Promise<T>): Promise<T>;
  shutdown(): Promise<void>;
}

let tracing: Tracing | undefined;

/**
 * Starts tracing when the OTEL_* variables ask for it (tracingRequested), else does nothing
 * and loads nothing. Call it first, before the modules it instruments are imported: the
 * process's entry imports the rest of the service after it
 * (docs/decisions.md#request-ids-and-traces-across-the-queue). Resolves whether it traces.
 */
export async function startTracing(serviceName: string): Promise<boolean> {
  if (tracing) return true;
  // The SDK reads the rest of its OTEL_* variables itself.
  if (!tracingRequested(loadConfig(tracingConfigSchema, process.env, serviceName))) return false;
  const { startSdk } = await import('./sdk.ts');
  tracing = await startSdk(serviceName);
  return true;
}

/**
 * Sends the spans still buffered and stops tracing; for a process's shutdown. Never rejects:
 * a collector that is away costs the spans, not the shutdown (the exporter bounds each send).
 */
export async function stopTracing(): Promise<void> {
  const stopping = tracing;
  tracing = undefined;
  await stopping?.shutdown().catch(() => {});
}

export function tracingOn(): boolean {
  return tracing !== undefined;
}

/** `trace_id` and `span_id` of the active span, for log lines; undefined when none is. */
export function traceLogFields(): { trace_id: string; span_id: string } | undefined {
  return tracing?.logFields();
}

/**
 * Runs an enqueue in a producer span, giving `work` the context a job carries so that its
 * processing continues the trace. Without tracing: `work` with no carrier.
 */
export function tracedSend<T>(
  queue: string,
  jobName: string,
  work: (carrier: TraceCarrier | undefined, sent: (jobId: string) => void) => Promise<T>,
): Promise<T> {
  return tracing ? tracing.send(queue, jobName, work) : work(undefined, ignore);
}

/** Runs a job in a consumer span, a child of the span that enqueued it (from `carrier`). */
export function tracedProcess<T>(
  queue: string,
  job: JobTraceInfo,
  carrier: TraceCarrier | undefined,
  work: () => Promise<T>,
): Promise<T> {
  return tracing ? tracing.process(queue, job, carrier, work) : work();
}

function ignore(): void {}
