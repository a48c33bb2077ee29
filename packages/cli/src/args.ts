import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { z } from '@switchboard/config';
import { CliError, EXIT } from './output.ts';

/**
 * Parses a command's options strictly (unknown options and stray words are errors), then
 * validates and converts them with the command's zod schema.
 */
export function parseOptions<Schema extends z.ZodType>(
  args: string[],
  options: ParseArgsOptionsConfig,
  schema: Schema,
): z.infer<Schema> {
  let values: Record<string, unknown>;
  try {
    values = parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new CliError('INVALID_ARGUMENTS', (error as Error).message, { exitCode: EXIT.usage });
  }
  const result = schema.safeParse(values);
  if (result.success) return result.data;
  throw new CliError('INVALID_ARGUMENTS', 'Invalid command options.', {
    exitCode: EXIT.usage,
    details: result.error.issues.map((issue) => ({ option: `--${issue.path.join('.')}`, message: issue.message })),
  });
}

/** A whole number given as an option string, within bounds. */
export const intOption = (min: number, max: number) => z.coerce.number().int().min(min).max(max);
