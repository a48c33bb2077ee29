import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { z } from '@switchboard/config';
import type { OptionSpec, RegisteredCommand } from './command.ts';
import { CliError, EXIT } from './output.ts';

/** Options every command takes, whatever its table row says. */
export const GLOBAL_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  json: { type: 'boolean', description: 'print the result as JSON (for scripts) instead of a table' },
  help: { type: 'boolean', description: 'show this help' },
};

/** What an audited (writing) API command takes besides its own options. */
export const REASON_OPTION: Readonly<Record<string, OptionSpec>> = {
  reason: { type: 'string', value: 'TEXT', description: 'why: recorded in the audit log (X-Audit-Log-Reason)' },
};

/** Every option a command accepts: its own, `--reason` when it writes, and the global ones. */
export function optionsOf(command: RegisteredCommand): Record<string, OptionSpec> {
  return { ...command.options, ...(command.audited ? REASON_OPTION : {}), ...GLOBAL_OPTIONS };
}

export interface ParsedCommandLine {
  options: unknown;
  json: boolean;
  help: boolean;
  reason: string | undefined;
}

function parseConfigOf(options: Record<string, OptionSpec>): ParseArgsOptionsConfig {
  const config: ParseArgsOptionsConfig = {};
  for (const [name, option] of Object.entries(options)) {
    config[name] = { type: option.type, ...(option.multiple ? { multiple: true } : {}) };
  }
  config['help'] = { type: 'boolean', short: 'h' };
  return config;
}

/**
 * Parses a command's words strictly (unknown options and stray words are errors), then
 * validates and converts them with the command's zod schema, which sees positionals under
 * their names (a variadic one as a list). `--help` skips validation: help is always shown.
 */
export function parseCommandLine(command: RegisteredCommand, args: string[]): ParsedCommandLine {
  const positionals = command.positionals ?? [];
  let values: Record<string, unknown>;
  try {
    const parsed = parseArgs({
      args,
      options: parseConfigOf(optionsOf(command)),
      strict: true,
      allowPositionals: positionals.length > 0,
    });
    values = { ...parsed.values };
    const words = [...parsed.positionals];
    for (const positional of positionals) {
      if (positional.variadic) values[positional.name] = words.splice(0);
      else if (words.length > 0) values[positional.name] = words.shift();
    }
    if (words.length > 0) throw new Error(`Unexpected argument "${words[0]}".`);
  } catch (error) {
    throw new CliError('INVALID_ARGUMENTS', (error as Error).message, { exitCode: EXIT.usage });
  }
  const { json, help, reason, ...own } = values;
  const common = { json: json === true, help: help === true, reason: auditReasonOf(reason) };
  if (common.help) return { ...common, options: undefined };
  const result = command.schema.safeParse(own);
  if (result.success) return { ...common, options: result.data };
  const names = new Set(positionals.map((positional) => positional.name));
  const nameOf = (path: string) => (names.has(path.split('.')[0]!) ? `<${path}>` : `--${path}`);
  throw new CliError('INVALID_ARGUMENTS', 'Invalid command options.', {
    exitCode: EXIT.usage,
    details: result.error.issues.map((issue) => ({ option: nameOf(issue.path.join('.')), message: issue.message })),
  });
}

/** The gateway drops a reason over 512 characters (docs/decisions.md#every-admin-write-is-audited): refused here instead. */
const REASON_MAX_CHARS = 512;

function auditReasonOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  if (value.trim() === '' || Array.from(value).length > REASON_MAX_CHARS) {
    throw new CliError('INVALID_ARGUMENTS', 'Invalid command options.', {
      exitCode: EXIT.usage,
      details: [{ option: '--reason', message: `1 to ${REASON_MAX_CHARS} characters` }],
    });
  }
  return value;
}

/** A whole number given as an option string, within bounds. */
export const intOption = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/**
 * The options of a command that takes exactly one of two alternatives (`--guild` or
 * `--channel`): either both or neither is a usage error naming the two.
 */
export function exactlyOneOf<Shape extends z.ZodRawShape>(
  shape: Shape,
  first: keyof Shape & string,
  second: keyof Shape & string,
) {
  return z
    .object(shape)
    .refine((options: Record<string, unknown>) => (options[first] === undefined) !== (options[second] === undefined), {
      message: `give --${first} or --${second}`,
      path: [first],
    });
}
