import { describe, expect, it } from 'vitest';
import { useTestEnvironment, useTestPool } from '@switchboard/testkit';
import { errorLine, runCli } from './run-cli.ts';

const environment = useTestEnvironment();
const db = useTestPool(environment);

async function version(): Promise<number> {
  const { rows } = await db().query<{ version: string }>('SELECT version FROM ip_bans_version');
  return Number(rows[0]!.version);
}

describe('cli bans ip remove', () => {
  it('lifts the ban on exactly that range in PostgreSQL and names the bans still covering it', async () => {
    await db().query(
      `INSERT INTO ip_bans (id, network, display) VALUES (1, '0.0.0.0/0', '0.0.0.0/0'), (2, '198.51.100.0/24', '198.51.100.0/24'), (3, '::/0', '::/0')`,
    );
    const before = await version();
    const run = await runCli(['bans', 'ip', 'remove', '0.0.0.0/0'], environment.processEnv());
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ removed: ['0.0.0.0/0'], still_covering: [] });
    // The change counter moved: every gateway reloads its bans on its next look.
    expect(await version()).toBeGreaterThan(before);
    const { rows } = await db().query<{ network: string }>('SELECT network::text AS network FROM ip_bans ORDER BY id');
    expect(rows.map((row) => row.network)).toEqual(['198.51.100.0/24', '::/0']);

    // A single address, however written; another ban still covering it is named.
    const again = await runCli(['bans', 'ip', 'remove', '::ffff:198.51.100.7'], environment.processEnv());
    expect(JSON.parse(again.stdout)).toEqual({ removed: [], still_covering: ['198.51.100.0/24'] });
  });

  it('refuses what is no address or range with a usage error', async () => {
    for (const args of [
      ['bans', 'ip', 'remove', '300.1.1.1'],
      ['bans', 'ip', 'remove'],
    ]) {
      const run = await runCli(args, environment.processEnv());
      expect([run.code, errorLine(run).error]).toEqual([2, 'INVALID_ARGUMENTS']);
    }
  });
});
