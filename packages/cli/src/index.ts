import { adminCreateCommand } from './commands/admin-create.ts';
import { archivesWatchCommand } from './commands/archives.ts';
import { bansIpRemoveCommand } from './commands/bans.ts';
import { demoSeedCommand } from './commands/demo-seed.ts';
import { jobsFailedCommand, jobsRetryCommand } from './commands/jobs.ts';
import { migrateCommand } from './commands/migrate.ts';
import type { RegisteredCommand } from './command.ts';
import { loadCliConfig } from './config.ts';
import { CliError, EXIT, writeError, writeResult } from './output.ts';

export { cliConfigSchema, devstackEnvPath, loadCliConfig, mergeDevstackEnv, type CliConfig } from './config.ts';
export { CliError } from './output.ts';

export const COMMANDS: readonly RegisteredCommand[] = [
  migrateCommand,
  adminCreateCommand,
  demoSeedCommand,
  jobsFailedCommand,
  jobsRetryCommand,
  archivesWatchCommand,
  bansIpRemoveCommand,
];

/** Splits `admin create --name x` into the command that its leading words name and the rest. */
function findCommand(args: string[]): { command: RegisteredCommand; rest: string[] } {
  for (const command of COMMANDS) {
    const words = command.name.split(' ');
    if (words.every((word, i) => args[i] === word)) return { command, rest: args.slice(words.length) };
  }
  const given = args
    .filter((arg) => !arg.startsWith('-'))
    .slice(0, 2)
    .join(' ');
  throw new CliError('UNKNOWN_COMMAND', given ? `Unknown command "${given}".` : 'No command given.', {
    exitCode: EXIT.usage,
    details: COMMANDS.map((c) => c.usage),
  });
}

/**
 * Runs one command: options first (no I/O on a usage error), then configuration, then the
 * work. The result is printed as JSON on stdout; a failure as one JSON line on stderr.
 * Returns the exit code.
 */
export async function runCli(args: string[]): Promise<number> {
  try {
    if (args.length === 1 && (args[0] === '--help' || args[0] === 'help')) {
      writeResult({ commands: COMMANDS.map((c) => c.usage) });
      return 0;
    }
    const { command, rest } = findCommand(args);
    const prepared = command.prepare(rest);
    const config = loadCliConfig();
    if (!config.ok) {
      throw new CliError('INVALID_CONFIG', 'Invalid configuration.', {
        exitCode: EXIT.config,
        details: config.problems,
      });
    }
    writeResult(await prepared.run(config.config));
    return 0;
  } catch (error) {
    return writeError(error);
  }
}
