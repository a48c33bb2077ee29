// The naive same-work baseline for deliveries (`minimal-delivery`): a raw BullMQ worker that,
// per job, renders the push into one embed the obvious way, INSERTs one message row and XADDs
// one MESSAGE_CREATE, one job at a time (no batching, no once-only markers, no claim checks).
import { loadConfig, z } from '@switchboard/config';
import { createPool } from '@switchboard/db';
import { createRedis } from '@switchboard/redis';
import { createSnowflakeGenerator } from '@switchboard/snowflake';
import { baselineStoresSchema } from '../../baseline-config.ts';
import { runRawWorker } from './raw-worker.ts';

const config = loadConfig(
  baselineStoresSchema.extend({
    MINIMAL_DELIVERY_QUEUE: z.string(),
    MINIMAL_DELIVERY_STREAM: z.string(),
    BENCH_WEBHOOK_ID: z.string(),
    BENCH_CHANNEL_ID: z.string(),
    BENCH_GUILD_ID: z.string(),
    WORKER_CONCURRENCY: z.coerce.number().int().min(1),
  }),
  process.env,
  'minimal-delivery',
);

const pool = createPool({
  connectionString: config.DATABASE_URL,
  max: config.DATABASE_POOL_SIZE,
  applicationName: 'bench-minimal-delivery',
});
const redis = createRedis(config.REDIS_URL, { role: 'client', name: 'bench-minimal-delivery-events' });
// Worker id 1023: the bench's gateway and webhook worker lease theirs from 0 up.
const ids = createSnowflakeGenerator(1023);

const INSERT = `INSERT INTO messages (id, channel_id, guild_id, webhook_id, webhook_name, embeds)
VALUES ($1, $2, $3, $4, 'bench hook', $5) RETURNING id, channel_id, created_at`;

interface Push {
  compare?: string;
  repository?: { full_name?: string };
  head_commit?: { message?: string } | null;
}

await runRawWorker(
  {
    name: 'minimal-delivery',
    queue: config.MINIMAL_DELIVERY_QUEUE,
    redisUrl: config.REDIS_URL,
    redisPrefix: config.REDIS_PREFIX,
    concurrency: config.WORKER_CONCURRENCY,
  },
  async (job) => {
    const push = (job.data as { body: { value: Push } }).body.value;
    const embeds = [
      {
        type: 'rich',
        title: push.repository?.full_name ?? '',
        description: push.head_commit?.message ?? '',
        url: push.compare ?? '',
      },
    ];
    const { rows } = await pool.query(INSERT, [
      ids.next(),
      config.BENCH_CHANNEL_ID,
      config.BENCH_GUILD_ID,
      config.BENCH_WEBHOOK_ID,
      JSON.stringify(embeds),
    ]);
    await redis.xadd(
      config.MINIMAL_DELIVERY_STREAM,
      'MAXLEN',
      '~',
      '100000',
      '*',
      'type',
      'MESSAGE_CREATE',
      'data',
      JSON.stringify({ ...rows[0], embeds }),
    );
  },
);
