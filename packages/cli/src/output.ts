import { renderText, type Rendered } from './render.ts';

/** An expected failure with a stable code: printed as one JSON line on stderr. */
export class CliError extends Error {
  readonly code: string;
  readonly exitCode: number;
  readonly details: unknown;

  constructor(code: string, message: string, { exitCode = 1, details }: { exitCode?: number; details?: unknown } = {}) {
    super(message);
    this.name = 'CliError';
    this.code = code;
    this.exitCode = exitCode;
    this.details = details;
  }
}

/** Usage errors exit 2, configuration errors 78 (EX_CONFIG), a watch that ran out of time 124 (as timeout(1)), everything else 1. */
export const EXIT = { failure: 1, usage: 2, config: 78, timeout: 124 } as const;

/** The result on stdout: as JSON for scripts (`--json`), else as the command renders it for people. */
export function writeOutput(result: unknown, json: boolean, render: () => Rendered): void {
  if (json) process.stdout.write(`${JSON.stringify(result ?? null, null, 2)}\n`);
  else process.stdout.write(`${renderText(render())}\n`);
}

/** One line, so scripts can parse it; never a stack trace (it may hold connection strings). */
export function writeError(error: unknown): number {
  const failure =
    error instanceof CliError
      ? error
      : new CliError('INTERNAL_ERROR', error instanceof Error ? error.message : String(error));
  const line: Record<string, unknown> = { error: failure.code, message: failure.message };
  if (failure.details !== undefined) line.details = failure.details;
  process.stderr.write(`${JSON.stringify(line)}\n`);
  return failure.exitCode;
}
