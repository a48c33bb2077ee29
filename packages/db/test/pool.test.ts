import { describe, expect, it } from 'vitest';
import { CircuitOpenError } from '@switchboard/circuit-breaker';
import { silentServer } from '@switchboard/testkit/network';
import { startFaultProxy } from '@switchboard/testkit/fault-proxy';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { createPool, inOneSnapshot, isDatabaseUnavailable, releaseAfter } from '../src/index.ts';

const environment = useTestEnvironment();

describe('createPool bounds', () => {
  it('gives up on a server that accepts connections and never answers, then fails fast while it stays silent', async () => {
    const silent = await silentServer();
    const pool = createPool({
      connectionString: `postgres://postgres@127.0.0.1:${silent.port}/none`,
      connectTimeoutMs: 300,
      circuitOpenMs: 60_000,
    });
    try {
      const first = await pool.query('SELECT 1').catch((error: unknown) => error);
      expect(isDatabaseUnavailable(first)).toBe(true);
      const started = performance.now();
      const next = await pool.query('SELECT 1').catch((error: unknown) => error);
      expect(next).toBeInstanceOf(CircuitOpenError);
      expect(isDatabaseUnavailable(next)).toBe(true);
      expect(performance.now() - started).toBeLessThan(250);
      await expect(pool.connect()).rejects.toBeInstanceOf(CircuitOpenError);
    } finally {
      await pool.end();
      await silent.close();
    }
  });

  it('cancels a statement past the query timeout on the server (57014) and keeps serving', async () => {
    const pool = createPool({ connectionString: environment.databaseUrl, queryTimeoutMs: 200, circuitOpenMs: 60_000 });
    try {
      const slow = await pool.query('SELECT pg_sleep(2)').catch((error: unknown) => error);
      expect((slow as { code?: string }).code).toBe('57014');
      expect(isDatabaseUnavailable(slow)).toBe(true);
      // The server answered: the circuit stays closed and the next statement runs.
      expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await pool.end();
    }
  });
});

describe('a checked-out connection that is lost between two statements', () => {
  it('does not crash the process: its holder learns of it from the next statement, and it is dropped', async () => {
    const target = new URL(environment.databaseUrl);
    const proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port) });
    const pool = createPool({ connectionString: proxy.urlFor(environment.databaseUrl), max: 2 });
    const uncaught: Error[] = [];
    const onUncaught = (error: Error) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      const client = await pool.connect();
      await client.query('SELECT 1');
      // Reset under it while nothing runs on it: pg emits 'error' on the client.
      proxy.setMode('cut');
      await new Promise((resolve) => client.once('end', resolve));
      const next = await client.query('SELECT 1').catch((error: unknown) => error);
      expect(next).toBeInstanceOf(Error);
      releaseAfter(client, next);
      proxy.setMode('pass');
      expect((await pool.query('SELECT 2 AS two')).rows).toEqual([{ two: 2 }]);
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
      await pool.end();
      await proxy.close();
    }
  });
});

describe('inOneSnapshot', () => {
  it('reads one snapshot, read only, when given the pool', async () => {
    const pool = createPool({ connectionString: environment.databaseUrl, max: 2 });
    try {
      await pool.query('CREATE TABLE snapshot_probe (n int)');
      const seen = await inOneSnapshot(pool, async (db) => {
        const before = await db.query<{ count: string }>('SELECT count(*) FROM snapshot_probe');
        // Committed by another connection while the snapshot is held.
        await pool.query('INSERT INTO snapshot_probe VALUES (1)');
        const after = await db.query<{ count: string }>('SELECT count(*) FROM snapshot_probe');
        const write = await db.query('INSERT INTO snapshot_probe VALUES (2)').catch((error: unknown) => error);
        return { before: before.rows[0]!.count, after: after.rows[0]!.count, write };
      });
      expect(seen).toMatchObject({ before: '0', after: '0', write: { code: '25006' } });
      expect((await pool.query('SELECT count(*)::int AS n FROM snapshot_probe')).rows[0].n).toBe(1);
    } finally {
      await pool.query('DROP TABLE IF EXISTS snapshot_probe');
      await pool.end();
    }
  });
});
