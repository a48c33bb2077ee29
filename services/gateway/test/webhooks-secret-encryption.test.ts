import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '@switchboard/config';
import { resealWebhookSecrets, secretKeyId, secretKeyring } from '@switchboard/db';
import { createWebhookFixture } from '@switchboard/testkit/webhooks';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { gatewayConfigSchema } from '../src/config.ts';
import { executeUrl } from './webhook-execute-helpers.ts';
import { createGuildFixture, createWebhook } from './webhooks-fixtures.ts';
import { startGateway, type RunningGateway } from './helpers.ts';

// docs/decisions.md#secrets-encrypted-at-rest: real gateways with keys, rows read back from PostgreSQL.
const environment = useTestEnvironment();
const OLD_KEY = randomBytes(32);
const NEW_KEY = randomBytes(32);
const SECRET = 'a shared secret nobody may read in the table';
let oldKeyGateway: RunningGateway;
let rotatedGateway: RunningGateway;

beforeAll(async () => {
  [oldKeyGateway, rotatedGateway] = await Promise.all([
    startGateway(environment, { RATE_LIMITS_ENABLED: 'false', SECRETS_ENCRYPTION_KEY: OLD_KEY.toString('base64') }),
    startGateway(environment, {
      RATE_LIMITS_ENABLED: 'false',
      SECRETS_ENCRYPTION_KEYS: `${NEW_KEY.toString('base64')},${OLD_KEY.toString('base64')}`,
    }),
  ]);
});

afterAll(async () => {
  await Promise.all([oldKeyGateway?.close(), rotatedGateway?.close()]);
});

const hmacHex = (secret: string, body: string) => createHmac('sha256', secret).update(body).digest('hex');

/** A signed code-host delivery: 204 when the signature verifies against the webhook's secret. */
async function deliver(gateway: RunningGateway, hook: { webhookId: string; token: string }, secret: string) {
  const body = JSON.stringify({ zen: 'Keep it logically awesome.', hook_id: 1 });
  const response = await fetch(`${executeUrl(gateway, hook)}/github`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      'X-GitHub-Event': 'ping',
      'X-GitHub-Delivery': randomUUID(),
      'X-Hub-Signature-256': `sha256=${hmacHex(secret, body)}`,
    },
    body,
  });
  return response.status;
}

async function storedRow(gateway: RunningGateway, webhookId: string) {
  const { rows } = await gateway.pool.query<{ secret: string; secret_key_id: string | null }>(
    'SELECT secret, secret_key_id FROM webhooks WHERE id = $1',
    [webhookId],
  );
  return rows[0]!;
}

describe('webhook secrets encrypted at rest', () => {
  it('are stored sealed under the write key, never as given, and signed deliveries still verify', async () => {
    const guild = await createGuildFixture(oldKeyGateway.pool);
    const made = await createWebhook(oldKeyGateway.url, guild.channelIds[0], guild.owner, {
      name: 'ci',
      secret: SECRET,
    });
    const row = await storedRow(oldKeyGateway, made.id);
    expect(row.secret_key_id).toBe(secretKeyId(OLD_KEY));
    expect(row.secret).not.toContain(SECRET);
    expect(Buffer.from(row.secret, 'base64').toString('latin1')).not.toContain('shared secret');
    const hook = { webhookId: made.id, token: made.token };
    expect(await deliver(oldKeyGateway, hook, SECRET)).toBe(204);
    expect(await deliver(oldKeyGateway, hook, 'another secret')).toBe(401);
  });

  it('rotate: rows under the old key still verify, new writes use the new key', async () => {
    const guild = await createGuildFixture(oldKeyGateway.pool);
    const made = await createWebhook(oldKeyGateway.url, guild.channelIds[0], guild.owner, {
      name: 'old',
      secret: SECRET,
    });
    const hook = { webhookId: made.id, token: made.token };
    expect(await deliver(rotatedGateway, hook, SECRET)).toBe(204);

    const patched = await fetch(`${rotatedGateway.url}/v1/webhooks/${made.id}`, {
      method: 'PATCH',
      headers: { authorization: guild.owner.token, 'content-type': 'application/json' },
      body: JSON.stringify({ secret: 'the new secret' }),
    });
    expect(patched.status).toBe(200);
    expect((await storedRow(rotatedGateway, made.id)).secret_key_id).toBe(secretKeyId(NEW_KEY));
    expect(await deliver(rotatedGateway, hook, 'the new secret')).toBe(204);
    expect(await deliver(rotatedGateway, hook, SECRET)).toBe(401);
  });

  it('read plaintext rows (from before the migration) as they are, and migrate seals them in place', async () => {
    const legacy = await createWebhookFixture(rotatedGateway.pool, { secret: SECRET });
    expect(await storedRow(rotatedGateway, legacy.webhookId)).toEqual({ secret: SECRET, secret_key_id: null });
    expect(await deliver(rotatedGateway, legacy, SECRET)).toBe(204);

    const keyring = secretKeyring([NEW_KEY, OLD_KEY]);
    expect(await resealWebhookSecrets(rotatedGateway.pool, keyring)).toBeGreaterThanOrEqual(1);
    const sealed = await storedRow(rotatedGateway, legacy.webhookId);
    expect(sealed.secret_key_id).toBe(secretKeyId(NEW_KEY));
    expect(sealed.secret).not.toContain(SECRET);
    // Idempotent: nothing is left to seal.
    expect(await resealWebhookSecrets(rotatedGateway.pool, keyring)).toBe(0);
    expect(await deliver(rotatedGateway, legacy, SECRET)).toBe(204);
  });

  it('are refused in production without a key, and a bad key is refused everywhere', () => {
    const env = environment.processEnv({ NODE_ENV: 'production', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' });
    const missing = parseConfig(gatewayConfigSchema, env);
    expect(missing.ok).toBe(false);
    expect(JSON.stringify(missing)).toContain('SECRETS_ENCRYPTION_KEY: required when NODE_ENV is production');
    expect(parseConfig(gatewayConfigSchema, { ...env, SECRETS_ENCRYPTION_KEY: NEW_KEY.toString('base64') }).ok).toBe(
      true,
    );
    const short = parseConfig(gatewayConfigSchema, {
      ...env,
      SECRETS_ENCRYPTION_KEY: randomBytes(16).toString('base64'),
    });
    expect(JSON.stringify(short)).toContain('SECRETS_ENCRYPTION_KEY: a 32-byte key in base64');
    const both = parseConfig(gatewayConfigSchema, {
      ...env,
      SECRETS_ENCRYPTION_KEY: NEW_KEY.toString('base64'),
      SECRETS_ENCRYPTION_KEYS: OLD_KEY.toString('base64'),
    });
    expect(JSON.stringify(both)).toContain('set one of them');
  });
});
