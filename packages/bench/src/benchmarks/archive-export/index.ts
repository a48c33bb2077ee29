import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Writable } from 'node:stream';
import { createGzip } from 'node:zlib';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import { createAdminWithKey } from '@switchboard/auth';
import { createPool, deleteGuildAssets, findArchive, type Archive, type Pool } from '@switchboard/db';
import { createSnowflakeGenerator } from '@switchboard/snowflake';
import { REPO_ROOT } from '../../config.ts';
import { cpuSpentOn, describeCpu, ownCpuSeconds } from '../../cpu-spent.ts';
import { ratio, type Measurement } from '../../measure.ts';
import { ownDescendant, processCpuSeconds } from '../../process-cpu.ts';
import { benchStorage } from '../../services.ts';
import type { Benchmark, BenchContext } from '../../types.ts';
import { spawnWorker } from '../webhook-support/worker-process.ts';

const ARCHIVE_WORKER_ENTRY = join(REPO_ROOT, 'services/archive-worker/src/main.ts');
const CLI_ENTRY = join(REPO_ROOT, 'packages/cli/src/main.ts');
const MESSAGES = 1_000_000;
const RSS_SAMPLE_MS = 100;

/** `npm run cli -- demo seed` for one guild of `messages` messages; answers its id. */
async function seedGuild(context: BenchContext, env: Record<string, string>, messages: number): Promise<string> {
  context.log(`seeding a guild of ${messages} messages (demo seed)`);
  const child = spawn(
    process.execPath,
    [
      CLI_ENTRY,
      'demo',
      'seed',
      '--guilds',
      '1',
      '--channels',
      '4',
      '--members',
      '50',
      '--messages',
      String(messages),
      '--json',
    ],
    {
      env: { ...env, SNOWFLAKE_WORKER_ID: '1010' },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`demo seed exited with ${code}`);
  return (JSON.parse(output) as { guilds: Array<{ id: string }> }).guilds[0]!.id;
}

/** Highest resident set of a process so far, from the kernel (VmHWM), in MB. */
async function peakRssMb(child: ChildProcess): Promise<number> {
  const status = await readFile(`/proc/${child.pid}/status`, 'utf8').catch(() => '');
  const match = /VmHWM:\s+(\d+) kB/.exec(status);
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

function single(seconds: number, ok: boolean): Measurement {
  const ms = seconds * 1000;
  return {
    requestsPerSecond: 1 / seconds,
    latencyMs: { p50: ms, p90: ms, p99: ms, mean: ms, max: ms },
    requests: 1,
    non2xx: ok ? 0 : 1,
    statusCodes: ok ? { 200: 1 } : { failed: 1 },
    errors: 0,
    timeouts: 0,
    bytesPerSecond: 0,
    durationSeconds: seconds,
  };
}

/**
 * The baseline: the same columns of the same messages out of PostgreSQL by COPY, through gzip
 * (level 6), on a connection opened before and closed after (a backend that exits while it is
 * measured takes its CPU reading with it).
 */
async function copyThroughGzip(client: pg.Client, guildId: string): Promise<{ seconds: number; bytes: number }> {
  let bytes = 0;
  const started = performance.now();
  const source = client.query(
    copyTo(`COPY (SELECT id, channel_id, author_id, webhook_id, webhook_name, created_at, edited_at, type, content, embeds, flags
                  FROM messages WHERE guild_id = ${BigInt(guildId)} ORDER BY channel_id, id) TO STDOUT`),
  );
  await pipeline(
    source,
    createGzip({ level: 6 }),
    new Writable({
      write: (chunk: Buffer, _encoding, done) => {
        bytes += chunk.length;
        done();
      },
    }),
  );
  return { seconds: (performance.now() - started) / 1000, bytes };
}

/**
 * Removes what the run put in its bucket, which is deleted after the run and must be empty by
 * then: the archive's ZIP and the images the demo seed stored for the guild.
 */
async function deleteRunObjects(
  env: Record<string, string>,
  pool: Pool,
  guildId: string,
  archiveId: string,
): Promise<void> {
  const archiveKey = (await findArchive(pool, archiveId))?.storageKey;
  const assetKeys = (await deleteGuildAssets(pool, guildId)).map((asset) => asset.storageKey);
  const keys = [archiveKey, ...assetKeys].filter((key): key is string => typeof key === 'string');
  const storage = benchStorage(env);
  try {
    await storage.deleteObjects(keys);
  } finally {
    storage.close();
  }
}

/** The row's own timestamps: how long the job waited for the worker, and how long the export took. */
function archivePhases(row: Archive | null): string {
  if (!row?.startedAt || !row.completedAt) return 'no phases: the row has no start or completion';
  const seconds = (from: Date, to: Date) => ((to.getTime() - from.getTime()) / 1000).toFixed(2);
  return `requested → started ${seconds(row.requestedAt, row.startedAt)} s, started → completed ${seconds(row.startedAt, row.completedAt)} s`;
}

/** Triggers a guild archive and polls it until it completes or fails: the time from trigger to done. */
async function archiveGuild(
  gatewayUrl: string,
  key: string,
  guildId: string,
): Promise<{ archive: { status: string; file_size: string | null }; oursSeconds: number; archiveId: string }> {
  const started = performance.now();
  const headers = { authorization: `Admin ${key}`, 'content-type': 'application/json' };
  const triggered = (await (
    await fetch(`${gatewayUrl}/v1/admin/archives/guild`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ guild_id: guildId }),
    })
  ).json()) as { archive_id: string };
  let archive: { status: string; file_size: string | null } = { status: 'queued', file_size: null };
  while (archive.status !== 'completed' && archive.status !== 'failed') {
    await new Promise((resolve) => setTimeout(resolve, RSS_SAMPLE_MS));
    const answer = await fetch(`${gatewayUrl}/v1/admin/archives/guild/${guildId}/${triggered.archive_id}`, {
      headers,
    });
    archive = ((await answer.json()) as { archive: typeof archive }).archive;
  }
  return { archive, oursSeconds: (performance.now() - started) / 1000, archiveId: triggered.archive_id };
}

/**
 * A guild archive of a 1,000,000-message guild (demo seed): from POST /admin/archives/guild to
 * `completed` (gateway + one archive-worker process, ZIP streamed into the store), against
 * `COPY (SELECT … the same messages …) TO STDOUT` through gzip in the same run. The worker's
 * peak RSS (VmHWM) is reported: it must stay flat whatever the guild's size.
 */
export const archiveExport: Benchmark = {
  name: 'archive-export',
  description: 'guild archive of a 1M-message guild (trigger → completed), vs COPY … TO STDOUT | gzip; worker peak RSS',
  async run(context) {
    const env = await context.serviceEnv();
    const guildId = await seedGuild(context, env, MESSAGES);
    const pool: Pool = createPool({ connectionString: env['DATABASE_URL']!, max: 2, applicationName: 'bench-archive' });
    try {
      const { key } = await createAdminWithKey(pool, createSnowflakeGenerator(1004), {
        name: 'bench-archive',
        acls: ['admin:authenticate', 'archive:trigger:guild', 'archive:view_all'],
      });
      const gateway = await context.startGateway({ RATE_LIMITS_ENABLED: 'false' });
      const worker = await spawnWorker(context, ARCHIVE_WORKER_ENTRY, { ...env, ARCHIVE_PROGRESS_INTERVAL_MS: '1000' });
      const rssAtStart = await peakRssMb(worker);

      context.log('archiving the guild');
      const s3Store = await ownDescendant('s3-server');
      const archived = await cpuSpentOn(() => archiveGuild(gateway.url, key, guildId), {
        'archive-worker': () => processCpuSeconds(worker.pid!),
        ...(s3Store === undefined ? {} : { 'S3 store': () => processCpuSeconds(s3Store) }),
        'gateway and harness': async () => (await processCpuSeconds(gateway.pid)) + (await ownCpuSeconds()),
      });
      const { archive, oursSeconds, archiveId } = archived.result;
      const phases = archivePhases(await findArchive(pool, archiveId));
      const peakRss = await peakRssMb(worker);
      await deleteRunObjects(env, pool, guildId, archiveId);

      context.log('baseline: COPY … TO STDOUT | gzip');
      const client = new pg.Client({ connectionString: env['DATABASE_URL']! });
      await client.connect();
      const copied = await cpuSpentOn(() => copyThroughGzip(client, guildId), {
        'gzip and COPY client (harness)': ownCpuSeconds,
      }).finally(() => client.end());
      const baseline = copied.result;
      return {
        benchmark: 'archive-export',
        notes: [
          `one guild of ${MESSAGES} messages in 4 text channels, 50 members (demo seed); archive ${archive.status}, ${archive.file_size} bytes ZIP; baseline ${baseline.bytes} bytes gzip`,
          `time: archive ${oursSeconds.toFixed(2)} s (trigger → completed, polled every ${RSS_SAMPLE_MS} ms; ${phases}) vs COPY | gzip ${baseline.seconds.toFixed(2)} s`,
          `CPU: archive ${describeCpu(archived.cpu)}; baseline ${describeCpu(copied.cpu)}`,
          `archive-worker peak RSS (VmHWM): ${peakRss.toFixed(0)} MB (${rssAtStart.toFixed(0)} MB when idle); target ≤ 300 MB, ≤ 2× the baseline time`,
          'one archive-worker process (WORKER_CONCURRENCY 2, deflate level 6), gateway with rate limits off; PostgreSQL, Redis and the S3 store share this machine',
        ],
        targets: [
          {
            target: 'archive (gateway + archive-worker)',
            url: 'POST /v1/admin/archives/guild',
            measurement: single(oursSeconds, archive.status === 'completed'),
          },
          { target: 'COPY … TO STDOUT | gzip', url: 'pg', measurement: single(baseline.seconds, true) },
        ],
        ratios: {
          'archive/baseline time': ratio(oursSeconds, baseline.seconds),
          'archive/baseline machine CPU': ratio(archived.cpu.machine, copied.cpu.machine),
          'worker peak RSS MB': peakRss,
        },
      };
    } finally {
      await pool.end();
    }
  },
};
