import { createAdminWithKey } from '@switchboard/auth';
import { LIMITS } from '@switchboard/contracts';
import { createPool, insertAdminUser } from '@switchboard/db';
import { createSnowflakeGenerator } from '@switchboard/snowflake';
import type { Benchmark, TargetResult } from '../../types.ts';
import { seedOnce } from '../../seed-once.ts';
import { auditBenchCases } from './cases.ts';
import { sampleLatency } from './sample.ts';
import { seedAuditLogs } from './seed.ts';

const ENTRIES = 1_000_000;
const SEED_ADMINS = 8;
const SPAN_DAYS = 365;

interface Seeded {
  key: string;
  adminUserId: string;
}

/** The run's database gets the admins, the 1M entries and the key the requests use. */
async function seed(databaseUrl: string, log: (message: string) => void): Promise<Seeded> {
  const pool = createPool({ connectionString: databaseUrl, max: 1, applicationName: 'bench-audit-seed' });
  try {
    const ids = createSnowflakeGenerator(1000);
    const { key } = await createAdminWithKey(pool, ids, {
      name: 'bench-auditor',
      acls: ['admin:authenticate', 'audit_log:view'],
    });
    const adminIds: string[] = [];
    for (let i = 0; i < SEED_ADMINS; i++)
      adminIds.push((await insertAdminUser(pool, { id: ids.next(), name: `bench-admin-${i}`, acls: [] })).id);
    const started = Date.now();
    await seedAuditLogs(pool, {
      entries: ENTRIES,
      adminIds,
      days: SPAN_DAYS,
      onProgress: (inserted) =>
        log(
          `seeded ${inserted.toLocaleString('en-US')} audit entries (${Math.round((Date.now() - started) / 1000)} s)`,
        ),
    });
    return { key, adminUserId: adminIds[3]! };
  } finally {
    await pool.end();
  }
}

/**
 * Audit-log search and list over 1M entries through HTTP: a spawned gateway, PostgreSQL
 * full-text search (GIN) with exact totals, one request at a time per case.
 */
export const auditSearch: Benchmark = {
  name: 'audit-search',
  description: `POST /v1/admin/audit-logs[/search] over ${ENTRIES.toLocaleString('en-US')} seeded entries: p50/p95 latency per query`,
  async run(context) {
    const env = await context.serviceEnv();
    const databaseUrl = env['DATABASE_URL']!;
    const { key, adminUserId } = await seedOnce('audit-search', databaseUrl, () => seed(databaseUrl, context.log));
    // Hundreds of requests a minute from one admin: the admin:audit_log bucket (100/min) would answer 429.
    const gateway = await context.startGateway({ RATE_LIMITS_ENABLED: 'false' });
    const targets: TargetResult[] = [];
    for (const benchCase of auditBenchCases({ adminUserId, now: new Date() })) {
      context.log(`measuring ${benchCase.name}`);
      const url = `${gateway.url}${benchCase.path}`;
      const measurement = await sampleLatency(
        { method: 'POST', url, headers: { authorization: `Admin ${key}` }, body: benchCase.body },
        {
          warmupMs: Math.min(context.load.warmupSeconds, 2) * 1000,
          durationMs: context.load.durationSeconds * 1000,
          minSamples: 20,
          maxSamples: 1000,
        },
      );
      targets.push({ target: benchCase.name, url: `${url} ${JSON.stringify(benchCase.body)}`, measurement });
    }
    return {
      benchmark: 'audit-search',
      notes: [
        `${ENTRIES.toLocaleString('en-US')} entries over ${SPAN_DAYS} days, ${SEED_ADMINS} admins, seeded set-based (generate_series), then VACUUM ANALYZE`,
        `one request at a time per case (latency an operator sees, not throughput under load); every answer includes the total, exact up to ${LIMITS.auditLogs.exactTotalMax.toLocaleString('en-US')} matches, beyond that an estimate (total_is_exact: false)`,
        'gateway started with RATE_LIMITS_ENABLED=false (explicit), NODE_ENV=production (development on the development S3 store, which production refuses), LOG_LEVEL=silent, GATEWAY_PROCESSES=auto (a process per core, as on a machine serving the gateway alone); --connections is not used',
        'PostgreSQL is the shared test/dev server with its own settings (shared_buffers): compare cases, not machines',
      ],
      targets,
      ratios: {},
    };
  },
};
