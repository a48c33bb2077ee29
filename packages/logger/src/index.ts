import { pino, type Logger, type LoggerOptions } from 'pino';

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

/** One JSON logger per process, named after it. */
export function createLogger(name: string, level: LoggerOptions['level'] = 'info'): Logger {
  return pino({ name, level, redact: { paths: REDACT_PATHS, censor: '[redacted]' }, base: { pid: process.pid } });
}
