import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { createAdminWithKey } from '@switchboard/auth';
import { createPool, insertGuild, insertUsers, type Pool } from '@switchboard/db';
import { createSnowflakeGenerator, type SnowflakeGenerator } from '@switchboard/snowflake';
import { REPO_ROOT } from '../../config.ts';
import { cpuSpentOn, describeCpu, ownCpuSeconds } from '../../cpu-spent.ts';
import { ratio, type Measurement } from '../../measure.ts';
import { processCpuSeconds } from '../../process-cpu.ts';
import type { Benchmark, BenchContext } from '../../types.ts';
import { spawnWorker } from '../webhook-support/worker-process.ts';
import { timedMeasurement } from './timed.ts';

const BULK_WORKER_ENTRY = join(REPO_ROOT, 'services/bulk-worker/src/main.ts');
/** Users per request: the interface's maximum, as an operator's batch would be. */
const USERS_PER_REQUEST = 1000;

/** Operations per side: enough for several seconds at the expected rate. */
function operationsFor(context: BenchContext): number {
  return Math.max(20, 4 * context.load.durationSeconds);
}

/**
 * Discarded operations per side before the measured ones, at the same expected rate: the
 * gateway and worker processes are fresh, and their first requests run unoptimised code.
 */
function warmupOperationsFor(context: BenchContext): number {
  return 4 * context.load.warmupSeconds;
}

/**
 * POSTs a prepared JSON body on a keep-alive connection and answers the status and body text:
 * node:http costs the load generator about half of what fetch does, and the generator shares
 * the machine's cores with what it measures.
 */
function postJson(
  agent: Agent,
  url: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(
      url,
      {
        method: 'POST',
        agent,
        headers: { ...headers, 'content-type': 'application/json', 'content-length': String(body.length) },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.once('end', () =>
          resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() }),
        );
        response.once('error', reject);
      },
    );
    sent.once('error', reject);
    sent.end(body);
  });
}

/** A guild with room for everyone, and `groups` groups of fresh users that are in no guild. */
async function seed(
  pool: Pool,
  ids: SnowflakeGenerator,
  groups: number,
): Promise<{ guildId: string; groups: string[][] }> {
  const ownerId = ids.next();
  const guildId = ids.next();
  await insertUsers(pool, [{ id: ownerId, username: 'bench_owner' }]);
  await insertGuild(pool, { id: guildId, name: 'bench bulk', ownerId, maxMembers: 10_000_000 });
  const result: string[][] = [];
  for (let group = 0; group < groups; group++) {
    const userIds = Array.from({ length: USERS_PER_REQUEST }, () => ids.next());
    await insertUsers(
      pool,
      userIds.map((id) => ({ id, username: `b${id.slice(-10)}` })),
    );
    result.push(userIds);
  }
  return { guildId, groups: result };
}

/**
 * POST /admin/bulk/add-guild-members with 1000 users per request into one guild, through the
 * gateway and one bulk-worker process (validation, auth, row, job, set-based insert with both
 * limits, audit entry, result), against the bare statement doing the same rows:
 * `INSERT … SELECT unnest(…) ON CONFLICT DO NOTHING`, with the same concurrency.
 */
export const bulkAdd: Benchmark = {
  name: 'bulk-add',
  description:
    'bulk add guild members (1000 users a request) through gateway + bulk worker, vs raw INSERT … SELECT unnest',
  async run(context) {
    const env = await context.serviceEnv();
    const pool = createPool({ connectionString: env['DATABASE_URL']!, max: 8, applicationName: 'bench-bulk-add' });
    const ids = createSnowflakeGenerator(1002);
    const operations = operationsFor(context);
    const warmup = warmupOperationsFor(context);
    const concurrency = Math.min(4, context.load.connections);
    try {
      context.log(`seeding ${2 * (warmup + operations) * USERS_PER_REQUEST} users`);
      const ours = await seed(pool, ids, warmup + operations);
      const raw = await seed(pool, ids, warmup + operations);
      const { key } = await createAdminWithKey(pool, ids, {
        name: 'bench-bulk',
        acls: ['admin:authenticate', 'bulk:add:guild_members'],
      });
      const gateway = await context.startGateway({ RATE_LIMITS_ENABLED: 'false', ADMIN_JOB_WAIT_MS: '60000' });
      const worker = await spawnWorker(context, BULK_WORKER_ENTRY, env);

      // Both sides' payloads are serialised before anything is timed: the load generator's own
      // work is not what either side measures.
      const agent = new Agent({ keepAlive: true, maxSockets: concurrency });
      const url = `${gateway.url}/v1/admin/bulk/add-guild-members`;
      const headers = { authorization: `Admin ${key}` };
      const bodies = ours.groups.map((group) =>
        Buffer.from(JSON.stringify({ guild_id: ours.guildId, user_ids: group })),
      );
      const throughGateway = async (index: number) => {
        const { status, text } = await postJson(agent, url, headers, bodies[index]!);
        const body = JSON.parse(text) as { successful?: string[] };
        return status === 200 && body.successful?.length === USERS_PER_REQUEST ? 200 : status;
      };
      // The same text pg would make of the array: PostgreSQL parses the same literal either way.
      const arrays = raw.groups.map((group) => `{${group.join(',')}}`);
      const rawStatement = async (index: number) => {
        const { rowCount } = await pool.query(
          `INSERT INTO members (guild_id, user_id) SELECT $1, unnest($2::bigint[]) ON CONFLICT DO NOTHING`,
          [raw.guildId, arrays[index]],
        );
        return rowCount === USERS_PER_REQUEST ? 200 : 500;
      };

      context.log(
        `${warmup} + ${operations} bulk adds through the gateway (warm-up, then measured), ${concurrency} at a time`,
      );
      await timedMeasurement(warmup, (index) => throughGateway(index), concurrency);
      const { result: gatewayMeasurement, cpu: gatewayCpu } = await cpuSpentOn(
        () => timedMeasurement(operations, (index) => throughGateway(warmup + index), concurrency),
        {
          gateway: () => processCpuSeconds(gateway.pid),
          'bulk-worker': () => processCpuSeconds(worker.pid!),
          harness: ownCpuSeconds,
        },
      );
      agent.destroy();

      context.log(
        `${warmup} + ${operations} raw INSERT … SELECT unnest statements (warm-up, then measured), ${concurrency} at a time`,
      );
      await timedMeasurement(warmup, (index) => rawStatement(index), concurrency);
      const { result: rawMeasurement, cpu: rawCpu } = await cpuSpentOn(
        () => timedMeasurement(operations, (index) => rawStatement(warmup + index), concurrency),
        { harness: ownCpuSeconds },
      );

      const usersPerSecond = (measurement: Measurement) => measurement.requestsPerSecond * USERS_PER_REQUEST;
      return {
        benchmark: 'bulk-add',
        notes: [
          `${operations} requests of ${USERS_PER_REQUEST} fresh users into one guild per side, ${concurrency} in flight, after ${warmup} discarded ones; req/s = operations per second, latency = request to answer`,
          `users per second: gateway + worker ${Math.round(usersPerSecond(gatewayMeasurement))}, raw statement ${Math.round(usersPerSecond(rawMeasurement))}`,
          `CPU: gateway + worker ${describeCpu(gatewayCpu, { units: operations, unit: 'operation' })}; raw statement ${describeCpu(rawCpu, { units: operations, unit: 'operation' })}`,
          'gateway: RATE_LIMITS_ENABLED=false, ADMIN_JOB_WAIT_MS=60000 (every answer is the 200 outcome); one bulk-worker process, default settings',
          'a non-2xx counts an answer that was not 200 with all 1000 users successful',
        ],
        targets: [
          {
            target: 'gateway + bulk-worker',
            url: 'POST /v1/admin/bulk/add-guild-members',
            measurement: gatewayMeasurement,
          },
          { target: 'raw INSERT … SELECT unnest', url: 'pg', measurement: rawMeasurement },
        ],
        ratios: {
          'gateway/raw operations per second': ratio(
            gatewayMeasurement.requestsPerSecond,
            rawMeasurement.requestsPerSecond,
          ),
        },
      };
    } finally {
      await pool.end();
    }
  },
};
