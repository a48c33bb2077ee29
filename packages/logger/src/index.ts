import { pino, type Logger, type LoggerOptions } from 'pino';
import { currentRequestId, traceLogFields } from '@switchboard/telemetry';

export type { Logger };

/** Paths that may carry secrets; pino replaces them before a line is written. */
const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  'authorization',
  'token',
  'key',
  'secret',
  'password',
  '*.token',
  '*.key',
  '*.secret',
  '*.password',
];

/**
 * What every line says of the work it was written for: the request id (the gateway's request,
 * or the request that enqueued the worker's job), and the active span's `trace_id` and
 * `span_id` when tracing is on (docs/decisions.md#request-ids-and-traces-across-the-queue).
 * A new object each time: pino merges the line's own fields into it.
 */
function correlation(): object {
  const requestId = currentRequestId();
  const trace = traceLogFields();
  if (trace) return requestId === undefined ? trace : { requestId, ...trace };
  return requestId === undefined ? {} : { requestId };
}

/** One JSON logger per process, named after it. */
export function createLogger(name: string, level: LoggerOptions['level'] = 'info'): Logger {
  return pino({
    name,
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: { pid: process.pid },
    mixin: correlation,
  });
}

export interface ErrorSummary {
  type: string;
  message: string;
  code?: string;
  stack?: string;
  cause?: ErrorSummary;
}

const MESSAGE_MAX_LENGTH = 300;

/**
 * What a log line says of an error: its type, message (cut short), code and stack, and the same
 * of its causes. Never its other properties, which may carry payloads: ioredis puts a failed
 * command's arguments on its errors (a whole webhook body, for a queue add refused by an
 * out-of-memory Redis), pg the offending row's values in `detail`.
 */
export function errorSummary(error: unknown, depth = 0): ErrorSummary {
  if (!(error instanceof Error)) return { type: typeof error, message: String(error).slice(0, MESSAGE_MAX_LENGTH) };
  const code = (error as { code?: unknown }).code;
  return {
    type: error.name,
    message: error.message.slice(0, MESSAGE_MAX_LENGTH),
    ...(typeof code === 'string' ? { code } : {}),
    ...(error.stack ? { stack: error.stack.split('\n').slice(1, 8).join('\n') } : {}),
    ...(error.cause !== undefined && depth < 3 ? { cause: errorSummary(error.cause, depth + 1) } : {}),
  };
}
