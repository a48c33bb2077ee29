import { describe, expect, it } from 'vitest';
import { parseConfig } from '@switchboard/config';
import { createWebhookFixture, useTestEnvironment, useTestPool } from '@switchboard/testkit';
import { webhookWorkerConfigSchema } from '../src/index.ts';
import { pruneHandler } from '../src/prune.ts';
import { ids, silentLogger } from './support.ts';

const environment = useTestEnvironment();
const pool = useTestPool(environment);

async function deliveryIds(webhookId: string): Promise<string[]> {
  const { rows } = await pool().query<{ id: string }>(
    'SELECT delivery_id AS id FROM webhook_deliveries WHERE webhook_id = $1 ORDER BY delivery_id',
    [webhookId],
  );
  return rows.map((row) => row.id);
}

describe('dedupe key pruning', () => {
  it('deletes keys older than the retention and keeps recent ones', async () => {
    const hook = await createWebhookFixture(pool());
    for (const deliveryId of ['old-1', 'old-2', 'fresh']) {
      await pool().query("INSERT INTO webhook_deliveries (webhook_id, delivery_id, source, message_id) VALUES ($1, $2, 'codehost', $3)", [
        hook.webhookId,
        deliveryId,
        ids.next(),
      ]);
    }
    await pool().query(
      "UPDATE webhook_deliveries SET created_at = now() - interval '10 days' WHERE webhook_id = $1 AND delivery_id LIKE 'old-%'",
      [hook.webhookId],
    );
    const prune = pruneHandler({ pool: pool(), logger: silentLogger, retentionHours: 7 * 24 });
    expect(await prune()).toEqual({ deleted: 2 });
    expect(await deliveryIds(hook.webhookId)).toEqual(['fresh']);
    expect(await prune()).toEqual({ deleted: 0 });
  });

});

describe('configuration', () => {
  const base = { DATABASE_URL: 'postgres://localhost/x', REDIS_URL: 'redis://localhost:6379' };

  it('refuses the test delay hook outside NODE_ENV=test', () => {
    const parsed = parseConfig(webhookWorkerConfigSchema, { ...base, NODE_ENV: 'production', WEBHOOK_TEST_DELAY_MS: '5' });
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problems.join('\n')).toContain('WEBHOOK_TEST_DELAY_MS');
    expect(parseConfig(webhookWorkerConfigSchema, { ...base, NODE_ENV: 'test', WEBHOOK_TEST_DELAY_MS: '5' }).ok).toBe(true);
  });

  it('has defaults for every webhook variable', () => {
    const parsed = parseConfig(webhookWorkerConfigSchema, base);
    expect(parsed.ok && parsed.config).toMatchObject({
      EVENTS_STREAM_MAX_LENGTH: 100_000,
      EVENTS_PUBLISHED_TTL_SECONDS: 600,
      WEBHOOK_DELIVERY_DEDUPE_HOURS: 168,
      WEBHOOK_TEST_DELAY_MS: 0,
    });
  });
});
