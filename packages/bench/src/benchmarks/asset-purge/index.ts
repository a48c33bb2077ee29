import { join } from 'node:path';
import { DeleteObjectsCommand } from '@aws-sdk/client-s3';
import { createAdminWithKey } from '@switchboard/auth';
import { storageKeys } from '@switchboard/contracts';
import { createPool, insertGuild, insertUsers } from '@switchboard/db';
import { createSnowflakeGenerator } from '@switchboard/snowflake';
import { REPO_ROOT } from '../../config.ts';
import { ratio } from '../../measure.ts';
import { benchStorage } from '../../services.ts';
import type { Benchmark } from '../../types.ts';
import { timedMeasurement } from '../bulk-add/timed.ts';
import { insertGuildEmojis, uploadPngs } from './emojis.ts';
import { spawnWorker } from '../webhook-support/worker-process.ts';

const ASSET_PURGE_WORKER_ENTRY = join(REPO_ROOT, 'services/asset-purge-worker/src/main.ts');
const ASSETS = 10_000;
/** S3's DeleteObjects maximum: what the worker sends, and what the baseline sends. */
const DELETE_BATCH = 1000;

/**
 * POST /admin/assets/purge {guild_id} for a guild of 10,000 emojis (rows and objects), through
 * the gateway and one asset-purge-worker process (rows and audit entry in one transaction, then
 * DeleteObjects in batches of 1000), against raw DeleteObjects of 10,000 other objects of the
 * same store in batches of 1000, one after another. Objects per second, both sides.
 */
export const assetPurge: Benchmark = {
  name: 'asset-purge',
  description:
    'purge of a 10,000-asset guild through gateway + asset-purge worker, vs raw S3 DeleteObjects (objects/s)',
  async run(context) {
    const env = await context.serviceEnv();
    const ids = createSnowflakeGenerator(1003);
    const pool = createPool({ connectionString: env['DATABASE_URL']!, max: 4, applicationName: 'bench-asset-purge' });
    const storage = benchStorage(env);
    try {
      const ownerId = ids.next();
      const guildId = ids.next();
      const emojiIds = Array.from({ length: ASSETS }, () => ids.next());
      await insertUsers(pool, [{ id: ownerId, username: 'bench_purge_owner' }]);
      await insertGuild(pool, { id: guildId, name: 'bench purge', ownerId });
      for (let start = 0; start < ASSETS; start += 1000) {
        await insertGuildEmojis(pool, guildId, ownerId, emojiIds.slice(start, start + 1000));
      }
      const baselineKeys = Array.from({ length: ASSETS }, (_, i) => `bench-baseline/${i}`);
      context.log(`uploading ${2 * ASSETS} objects`);
      await uploadPngs(storage, emojiIds.map(storageKeys.emoji), 32);
      await uploadPngs(storage, baselineKeys, 32);

      const { key } = await createAdminWithKey(pool, ids, {
        name: 'bench-purge',
        acls: ['admin:authenticate', 'asset:purge'],
      });
      const gateway = await context.startGateway({ RATE_LIMITS_ENABLED: 'false', ADMIN_JOB_WAIT_MS: '60000' });
      const headers = { authorization: `Admin ${key}`, 'content-type': 'application/json' };
      await spawnWorker(context, ASSET_PURGE_WORKER_ENTRY, env);

      context.log(`purging a guild of ${ASSETS} emojis`);
      const purge = await timedMeasurement(
        1,
        async () => {
          const answer = await fetch(`${gateway.url}/v1/admin/assets/purge`, {
            method: 'POST',
            headers,
            body: JSON.stringify({ guild_id: guildId }),
          });
          let body = (await answer.json()) as { purge_id?: string; status?: string; deleted_objects?: number };
          // Past ADMIN_JOB_WAIT_MS the answer is 202: the clock runs on until the status route says completed.
          while (answer.status === 202 && body.status !== 'completed' && body.status !== 'failed') {
            await new Promise((resolve) => setTimeout(resolve, 100));
            body = (await (
              await fetch(`${gateway.url}/v1/admin/assets/purges/${body.purge_id}`, { headers })
            ).json()) as typeof body;
          }
          return body.deleted_objects === ASSETS ? 200 : 500;
        },
        1,
      );
      const left = (
        await Promise.all(emojiIds.slice(0, 50).map((id) => storage.headObject(storageKeys.emoji(id))))
      ).filter(Boolean).length;
      if (left > 0) throw new Error(`${left} of 50 sampled objects are still in the store after the purge`);

      context.log(`raw DeleteObjects of ${ASSETS} objects in batches of ${DELETE_BATCH}`);
      const raw = await timedMeasurement(
        1,
        async () => {
          for (let start = 0; start < ASSETS; start += DELETE_BATCH) {
            const Objects = baselineKeys.slice(start, start + DELETE_BATCH).map((Key) => ({ Key }));
            await storage.client.send(
              new DeleteObjectsCommand({ Bucket: env['S3_BUCKET']!, Delete: { Objects, Quiet: true } }),
            );
          }
          return 200;
        },
        1,
      );
      const objectsPerSecond = (seconds: number) => ASSETS / seconds;
      const ours = objectsPerSecond(purge.durationSeconds);
      const baseline = objectsPerSecond(raw.durationSeconds);
      return {
        benchmark: 'asset-purge',
        notes: [
          `one purge of a guild with ${ASSETS} emojis (rows + objects) vs raw DeleteObjects of ${ASSETS} objects of the same store, ${DELETE_BATCH} a batch`,
          `objects per second: gateway + worker ${Math.round(ours)} (${purge.durationSeconds.toFixed(2)} s from request to 200), raw ${Math.round(baseline)} (${raw.durationSeconds.toFixed(2)} s)`,
          'gateway: RATE_LIMITS_ENABLED=false, ADMIN_JOB_WAIT_MS=60000; one asset-purge-worker process; --connections, --duration and --warmup are not used',
        ],
        targets: [
          { target: 'gateway + asset-purge-worker', url: 'POST /v1/admin/assets/purge', measurement: purge },
          { target: 'raw DeleteObjects', url: 's3', measurement: raw },
        ],
        ratios: { 'gateway/raw objects per second': ratio(ours, baseline) },
      };
    } finally {
      storage.close();
      await pool.end();
    }
  },
};
