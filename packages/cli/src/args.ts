import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { z } from '@switchboard/config';
import { CliError, EXIT } from './output.ts';

/**
 * Parses a command's options strictly (unknown options and stray words are errors), then
 * validates and converts them with the command's zod schema. `positionals` names the bare
 * words a command takes, in order (`archives watch <id>`: `['id']`); the schema sees them under
 * those names, and problems name them `<id>`.
 */
export function parseOptions<Schema extends z.ZodType>(
  args: string[],
  options: ParseArgsOptionsConfig,
  schema: Schema,
  positionals: readonly string[] = [],
): z.infer<Schema> {
  let values: Record<string, unknown>;
  try {
    const parsed = parseArgs({ args, options, strict: true, allowPositionals: positionals.length > 0 });
    if (parsed.positionals.length > positionals.length)
      throw new Error(`Unexpected argument "${parsed.positionals[positionals.length]}".`);
    values = { ...parsed.values, ...Object.fromEntries(parsed.positionals.map((word, i) => [positionals[i]!, word])) };
  } catch (error) {
    throw new CliError('INVALID_ARGUMENTS', (error as Error).message, { exitCode: EXIT.usage });
  }
  const result = schema.safeParse(values);
  if (result.success) return result.data;
  const nameOf = (path: string) => (positionals.includes(path) ? `<${path}>` : `--${path}`);
  throw new CliError('INVALID_ARGUMENTS', 'Invalid command options.', {
    exitCode: EXIT.usage,
    details: result.error.issues.map((issue) => ({ option: nameOf(issue.path.join('.')), message: issue.message })),
  });
}

/** A whole number given as an option string, within bounds. */
export const intOption = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
