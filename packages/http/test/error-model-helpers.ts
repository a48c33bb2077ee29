import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';

export interface CapturedLogger {
  logger: Logger;
  lines(): Array<Record<string, unknown>>;
}

/** A real pino logger whose JSON lines are kept for assertions. */
export function captureLogger(): CapturedLogger {
  const lines: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n'))
        if (line) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'debug' }, sink), lines: () => lines };
}
