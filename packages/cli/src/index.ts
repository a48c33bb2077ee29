import { createApiClient } from './api.ts';
import { parseCommandLine } from './args.ts';
import type { RegisteredCommand } from './command.ts';
import { COMMANDS } from './commands/index.ts';
import { loadApiConfig, loadCliConfig } from './config.ts';
import { commandHelp, commandListHelp } from './help.ts';
import { CliError, EXIT, writeError, writeOutput } from './output.ts';
import { guessRendering } from './render.ts';

export { COMMANDS } from './commands/index.ts';
export { optionsOf } from './args.ts';
export {
  apiConfigSchema,
  cliConfigSchema,
  devstackEnvPath,
  loadCliConfig,
  mergeDevstackEnv,
  type ApiConfig,
  type CliConfig,
} from './config.ts';
export { CliError } from './output.ts';
export type { RegisteredCommand } from './command.ts';

const wordsOf = (args: readonly string[]) => {
  const end = args.findIndex((arg) => arg.startsWith('-'));
  return end === -1 ? [...args] : args.slice(0, end);
};

/** The command that the leading words name (the longest such), and the words after them. */
function findCommand(args: string[]): { command: RegisteredCommand; rest: string[] } | { prefix: string[] } {
  let found: { command: RegisteredCommand; rest: string[] } | undefined;
  for (const command of COMMANDS) {
    const words = command.name.split(' ');
    const matches = words.every((word, i) => args[i] === word);
    if (matches && (!found || words.length > found.command.name.split(' ').length)) {
      found = { command, rest: args.slice(words.length) };
    }
  }
  return found ?? { prefix: wordsOf(args) };
}

/** Words that begin some command's name (`bans`, `bans ip`): their commands are listed. */
function isGroup(prefix: readonly string[]): boolean {
  return (
    prefix.length > 0 && COMMANDS.some((command) => prefix.every((word, i) => command.name.split(' ')[i] === word))
  );
}

async function run(command: RegisteredCommand, options: unknown, reason: string | undefined): Promise<unknown> {
  if (command.uses === 'api') {
    const config = loadApiConfig();
    if (!config.ok) {
      throw new CliError('INVALID_CONFIG', 'Invalid configuration.', {
        exitCode: EXIT.config,
        details: config.problems,
      });
    }
    return command.run(options, createApiClient(config.config, reason));
  }
  const config = loadCliConfig();
  if (!config.ok) {
    throw new CliError('INVALID_CONFIG', 'Invalid configuration.', { exitCode: EXIT.config, details: config.problems });
  }
  return command.run(options, config.config);
}

/**
 * Runs one command: options first (no I/O on a usage error), then configuration, then the
 * work. The result goes to stdout as a table, or as JSON with `--json`; a failure is one JSON
 * line on stderr. Returns the exit code.
 */
export async function runCli(args: string[]): Promise<number> {
  try {
    const found = findCommand(args);
    if ('prefix' in found) {
      const asksHelp = args.includes('--help') || args.includes('-h') || args[0] === 'help';
      const prefix = args[0] === 'help' ? [] : found.prefix;
      if (asksHelp && (prefix.length === 0 || isGroup(prefix))) {
        process.stdout.write(commandListHelp(COMMANDS, prefix));
        return 0;
      }
      if (isGroup(prefix)) {
        throw new CliError('UNKNOWN_COMMAND', `"${prefix.join(' ')}" needs a command after it.`, {
          exitCode: EXIT.usage,
          details: COMMANDS.filter((command) => command.name.startsWith(`${prefix.join(' ')} `)).map((c) => c.name),
        });
      }
      const given = prefix.slice(0, 3).join(' ');
      throw new CliError('UNKNOWN_COMMAND', given ? `Unknown command "${given}".` : 'No command given.', {
        exitCode: EXIT.usage,
        details: COMMANDS.map((command) => command.name),
      });
    }
    const { command, rest } = found;
    const line = parseCommandLine(command, rest);
    if (line.help) {
      process.stdout.write(commandHelp(command));
      return 0;
    }
    const result = await run(command, line.options, line.reason);
    writeOutput(result, line.json, () => (command.render ?? guessRendering)(result));
    return 0;
  } catch (error) {
    return writeError(error);
  }
}
