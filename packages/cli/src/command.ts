import type { CliConfig } from './config.ts';

/** One CLI command: parse its options (before any I/O), then run with the configuration. */
export interface Command<Options> {
  /** The words that select it, e.g. `admin create`. */
  name: string;
  usage: string;
  parse(args: string[]): Options;
  run(options: Options, config: CliConfig): Promise<unknown>;
}

/** A command with its options already parsed, ready to run. */
export interface PreparedCommand {
  name: string;
  run(config: CliConfig): Promise<unknown>;
}

export interface RegisteredCommand {
  name: string;
  usage: string;
  prepare(args: string[]): PreparedCommand;
}

export function defineCommand<Options>(command: Command<Options>): RegisteredCommand {
  return {
    name: command.name,
    usage: command.usage,
    prepare(args) {
      const options = command.parse(args);
      return { name: command.name, run: (config) => command.run(options, config) };
    },
  };
}
