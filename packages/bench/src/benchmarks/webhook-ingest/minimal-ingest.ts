import type { AddressInfo } from 'node:net';
import express from 'express';
import { loadConfig, z } from '@switchboard/config';
import { createPool } from '@switchboard/db';
import { bullQueue } from '@switchboard/queue';
import { createRedis } from '@switchboard/redis';
import { baselineStoresSchema } from '../../baseline-config.ts';

/**
 * The naive same-work baseline for ingest (`minimal-ingest`): express parses the JSON body,
 * then per request one `INSERT … ON CONFLICT DO NOTHING` of the delivery id and one BullMQ
 * `add` of the body, then 204. No validation, auth, token lookup or rendering. The gap between
 * it and the bare JSON baseline is the price of the durable writes; the gap between the
 * gateway and it is ours.
 */
// Registered before any await: the harness sends its one message right after the fork.
const started = new Promise((resolve) => process.once('message', resolve));
const config = loadConfig(
  baselineStoresSchema.extend({
    MINIMAL_INGEST_QUEUE: z.string(),
  }),
  process.env,
  'minimal-ingest',
);

const pool = createPool({
  connectionString: config.DATABASE_URL,
  max: config.DATABASE_POOL_SIZE,
  applicationName: 'bench-minimal-ingest',
});
await pool.query(
  'CREATE TABLE IF NOT EXISTS bench_minimal_deliveries (delivery_id text PRIMARY KEY, created_at timestamptz NOT NULL DEFAULT now())',
);
const connection = createRedis(config.REDIS_URL, { role: 'worker', name: 'bench-minimal-ingest' });
const queue = bullQueue(config.MINIMAL_INGEST_QUEUE, connection, config.REDIS_PREFIX);

const app = express();
app.disable('x-powered-by');
app.disable('etag');
app.use(express.json({ limit: 25 * 1024 * 1024 }));
app.use(async (req, res) => {
  const deliveryId = req.get('x-github-delivery') ?? '';
  const claimed = await pool.query(
    'INSERT INTO bench_minimal_deliveries (delivery_id) VALUES ($1) ON CONFLICT DO NOTHING',
    [deliveryId],
  );
  if (claimed.rowCount === 1) await queue.add('delivery', req.body, { removeOnComplete: true });
  res.status(204).end();
});

await started;
const server = app.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.address() as AddressInfo).port });
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
// The harness may vanish without a signal (killed); do not outlive it.
process.once('disconnect', () => process.exit(0));
