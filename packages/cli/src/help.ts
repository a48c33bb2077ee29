import { optionsOf } from './args.ts';
import type { OptionSpec, RegisteredCommand } from './command.ts';

const PROGRAM = 'switchboard';

/** Two columns, the first padded to its widest entry. */
function columns(rows: ReadonlyArray<readonly [string, string]>): string[] {
  const width = Math.max(0, ...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`);
}

function optionLabel(name: string, option: OptionSpec): string {
  const short = name === 'help' ? '-h, ' : '';
  const value = option.type === 'string' ? ` ${option.value ?? 'VALUE'}` : '';
  return `${short}--${name}${value}${option.multiple ? ' …' : ''}`;
}

function positionalLabel(positional: NonNullable<RegisteredCommand['positionals']>[number]): string {
  const word = `<${positional.name}>${positional.variadic ? '…' : ''}`;
  return positional.optional ? `[${word}]` : word;
}

/** `switchboard bans ip add <value>… [options]`. */
export function usageLine(command: RegisteredCommand): string {
  const words = (command.positionals ?? []).map(positionalLabel);
  return [PROGRAM, command.name, ...words, '[options]'].join(' ');
}

/** One command's help, made from its table row: usage, what it does, its arguments and options. */
export function commandHelp(command: RegisteredCommand): string {
  const lines = [`Usage: ${usageLine(command)}`, '', command.summary];
  if (command.description) lines.push('', command.description);
  const positionals = command.positionals ?? [];
  if (positionals.length > 0) {
    lines.push('', 'Arguments:', ...columns(positionals.map((p) => [positionalLabel(p), p.description] as const)));
  }
  const options = Object.entries(optionsOf(command));
  lines.push(
    '',
    'Options:',
    ...columns(options.map(([name, option]) => [optionLabel(name, option), option.description])),
  );
  if (command.uses === 'api') {
    lines.push('', 'Calls the HTTP API at SWITCHBOARD_URL with the admin key SWITCHBOARD_ADMIN_KEY (or _FILE).');
  }
  return `${lines.join('\n')}\n`;
}

/** The commands whose names start with `prefix` (every command for none), one line each. */
export function commandListHelp(commands: readonly RegisteredCommand[], prefix: readonly string[] = []): string {
  const chosen = commands.filter((command) => prefix.every((word, i) => command.name.split(' ')[i] === word));
  const head = prefix.length === 0 ? `${PROGRAM} <command> [options]` : `${PROGRAM} ${prefix.join(' ')} <command>`;
  const lines = [
    `Usage: ${head}`,
    '',
    'Commands:',
    ...columns(chosen.map((command) => [command.name, command.summary] as const)),
    '',
    `Run "${PROGRAM} <command> --help" for a command's options. Every command takes --json.`,
  ];
  return `${lines.join('\n')}\n`;
}
