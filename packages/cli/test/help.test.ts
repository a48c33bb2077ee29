import { describe, expect, it } from 'vitest';
import { COMMANDS, optionsOf, type RegisteredCommand } from '../src/index.ts';
import { runCli } from './run-cli.ts';

// Help needs no configuration at all: only PATH reaches the process.
const NO_ENV = {};

/** At most `width` at once: each run is a process start on a shared machine. */
async function inBatches<T, R>(items: readonly T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let i = 0; i < items.length; i += width)
    results.push(...(await Promise.all(items.slice(i, i + width).map(work))));
  return results;
}

describe('switchboard --help', () => {
  it('lists every command of the table', async () => {
    const run = await runCli(['--help'], NO_ENV);
    expect(run.code).toBe(0);
    for (const command of COMMANDS) expect(run.stdout).toContain(`  ${command.name} `);
  });

  it("shows each command's usage, arguments and every option, made from the command table", async () => {
    const runs = await inBatches(COMMANDS, 4, async (command: RegisteredCommand) => ({
      command,
      run: await runCli([...command.name.split(' '), '--help'], NO_ENV),
    }));
    for (const { command, run } of runs) {
      expect(run.code, `${command.name}: ${run.stderr}`).toBe(0);
      expect(run.stdout).toContain(`Usage: switchboard ${command.name}`);
      for (const name of Object.keys(optionsOf(command))) expect(run.stdout, command.name).toContain(`--${name}`);
      for (const positional of command.positionals ?? []) expect(run.stdout).toContain(`<${positional.name}>`);
      expect(run.stdout.includes('--reason'), command.name).toBe(command.audited === true);
    }
    // One process start per command, a few at once, on a machine that may be busy.
  }, 300_000);

  it('lists the commands of a group, and refuses a group without its command', async () => {
    const group = await runCli(['bans', 'ip', '--help'], NO_ENV);
    expect(group.code).toBe(0);
    expect(group.stdout).toContain('bans ip remove');
    expect(group.stdout).not.toContain('bans email add');
    const bare = await runCli(['bans', 'ip'], NO_ENV);
    expect(bare.code).toBe(2);
    expect(JSON.parse(bare.stderr)).toMatchObject({
      error: 'UNKNOWN_COMMAND',
      details: expect.arrayContaining(['bans ip add']),
    });
    const unknown = await runCli(['nope'], NO_ENV);
    expect([unknown.code, JSON.parse(unknown.stderr).error]).toEqual([2, 'UNKNOWN_COMMAND']);
  });

  it('says which variable is missing before calling anything', async () => {
    const run = await runCli(['keys', 'list'], NO_ENV);
    expect(run.code).toBe(78);
    expect(JSON.parse(run.stderr)).toMatchObject({
      error: 'INVALID_CONFIG',
      details: [expect.stringContaining('SWITCHBOARD_ADMIN_KEY')],
    });
  });
});
