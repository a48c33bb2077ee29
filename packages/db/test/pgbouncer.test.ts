import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPgBouncer, type RunningPgBouncer } from '@switchboard/testkit/pgbouncer';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { createPool, withTransaction, type Pool } from '../src/index.ts';

// Debian's PgBouncer (1.18: no prepared statements in transaction mode), in transaction mode,
// as most managed PostgreSQL setups put one in front.
const environment = useTestEnvironment();
let bouncer: RunningPgBouncer;
const pools: Pool[] = [];

beforeAll(async () => {
  bouncer = await startPgBouncer(environment.databaseUrl);
});
afterAll(async () => {
  await Promise.all(pools.map((pool) => pool.end()));
  await bouncer?.stop();
});

function pooled(options: { queryTimeoutMs?: number; transactionPooler?: boolean } = {}): Pool {
  const pool = createPool({
    connectionString: bouncer.urlFor(environment.databaseUrl),
    max: 4,
    transactionPooler: options.transactionPooler ?? true,
    queryTimeoutMs: options.queryTimeoutMs ?? 3_000,
  });
  pools.push(pool);
  return pool;
}

describe('a pool behind PgBouncer in transaction mode', () => {
  it('connects, where session settings at connect are refused', async () => {
    const refused = await pooled({ transactionPooler: false })
      .query('SELECT 1')
      .catch((error: Error) => error);
    expect(String(refused)).toMatch(/unsupported startup parameter/);
    expect((await pooled().query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
  });

  it('runs the same named statement many times, on whichever server connection, unnamed', async () => {
    const pool = pooled();
    const runs = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        pool.query<{ n: number }>({ name: 'pgbouncer-test-echo', text: 'SELECT $1::int AS n', values: [index] }),
      ),
    );
    expect(runs.map((run) => run.rows[0]!.n)).toEqual(Array.from({ length: 40 }, (_, index) => index));
  });

  it("bounds a transaction's statements and sets its time zone inside it", async () => {
    const pool = pooled({ queryTimeoutMs: 300 });
    const cancelled = await withTransaction(pool, (client) => client.query('SELECT pg_sleep(5)')).catch(
      (error: Error) => error,
    );
    expect(String(cancelled)).toMatch(/canceling statement due to statement timeout/);
    const zone = await withTransaction(pool, async (client) => (await client.query('SHOW TimeZone')).rows[0]);
    expect(zone).toEqual({ TimeZone: 'UTC' });
  });

  it('gives up on a lone statement at the client-side bound, and serves the next', async () => {
    const pool = pooled({ queryTimeoutMs: 300 });
    const started = performance.now();
    const timedOut = await pool.query('SELECT pg_sleep(5)').catch((error: Error) => error);
    expect(String(timedOut)).toMatch(/timeout/i);
    expect(performance.now() - started).toBeLessThan(4_000);
    expect((await pool.query('SELECT 2 AS two')).rows).toEqual([{ two: 2 }]);
  });
});
