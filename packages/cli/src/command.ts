import type { z } from '@switchboard/config';
import type { ApiClient } from './api.ts';
import type { CliConfig } from './config.ts';
import type { Rendered } from './render.ts';

/** One option of a command: how it is parsed, and what `--help` says of it. */
export interface OptionSpec {
  type: 'string' | 'boolean';
  /** Given more than once, collected into a list. */
  multiple?: boolean;
  /** The value's name in help (`--limit N`); strings only. */
  value?: string;
  description: string;
}

/** A bare word a command takes, in order; `variadic` (last only) takes every remaining word. */
export interface PositionalSpec {
  name: string;
  description: string;
  variadic?: boolean;
  optional?: boolean;
}

interface SpecBase<Schema extends z.ZodType, Result> {
  /** The words that select it, e.g. `bans ip add`. */
  name: string;
  /** One line, for the command list. */
  summary: string;
  /** More, for the command's own help. */
  description?: string;
  positionals?: readonly PositionalSpec[];
  options?: Readonly<Record<string, OptionSpec>>;
  /** Validates and converts what parseArgs found, under the option and positional names. */
  schema: Schema;
  /** How people see the result (`--json` prints it as it is); default: renderResult's guess. */
  render?: (result: Awaited<Result>) => Rendered;
}

/**
 * A command served by the HTTP API with an admin key, so it is authorised, rate limited and
 * audited like any admin. `audited`: it writes, so it takes `--reason` (X-Audit-Log-Reason).
 */
export interface ApiCommandSpec<Schema extends z.ZodType, Result> extends SpecBase<Schema, Result> {
  uses: 'api';
  audited?: boolean;
  run(options: z.output<Schema>, api: ApiClient): Promise<Result>;
}

/** One of the few commands that need the database itself (migrate, the first key, demo data). */
export interface DatabaseCommandSpec<Schema extends z.ZodType, Result> extends SpecBase<Schema, Result> {
  uses: 'database';
  audited?: never;
  run(options: z.output<Schema>, config: CliConfig): Promise<Result>;
}

export type CommandSpec<Schema extends z.ZodType, Result> =
  | ApiCommandSpec<Schema, Result>
  | DatabaseCommandSpec<Schema, Result>;

/** The command table's row: its spec with the types of its options and result erased. */
export type RegisteredCommand = CommandSpec<z.ZodType, unknown>;

export function defineCommand<Schema extends z.ZodType, Result>(spec: CommandSpec<Schema, Result>): RegisteredCommand {
  return spec as unknown as RegisteredCommand;
}
