import { createAdminWithKey } from '@switchboard/auth';
import { ACL } from '@switchboard/contracts';
import type { Pool } from '@switchboard/db';
import { createSnowflakeGenerator } from '@switchboard/snowflake';
import { call, type Answer } from '@switchboard/testkit/http';
import { createWebhookFixture, type WebhookFixture } from '@switchboard/testkit/webhooks';
import { testSnowflakeWorkerId } from '@switchboard/testkit/ids';
import { seedBulkAddGuild } from '../bulk-add-guild.ts';
import type { Reply, RequestKind } from './traffic.ts';

/** Bodies above this go to S3 (claim check): the gateway is started with it, and `execute-s3` sends more. */
export const INLINE_BODY_MAX_BYTES = 1024;

/** What the admin key of the mixed traffic may do. */
export const ADMIN_ACLS = [
  ACL.authenticate,
  ACL.auditLogView,
  ACL.archiveViewAll,
  ACL.archiveTriggerGuild,
  ACL.banEmailCheck,
  ACL.assetPurge,
  ACL.bulkAddGuildMembers,
];

/** A guild with an owner and three users to bulk add, for the job traffic. */
export function seedGuild(pool: Pool): Promise<{ guildId: string; userIds: string[] }> {
  const ids = createSnowflakeGenerator(testSnowflakeWorkerId());
  return seedBulkAddGuild(pool, ids, { name: 'fault outage', users: 3 });
}

/** What the mixed traffic needs in the scenario's database: a webhook, an admin key and a guild. */
export async function seedMixedTargets(
  pool: Pool,
  adminName: string,
): Promise<Pick<MixedTrafficTargets, 'adminKey' | 'guild'> & { hook: WebhookFixture }> {
  const hook = await createWebhookFixture(pool);
  const ids = createSnowflakeGenerator(testSnowflakeWorkerId());
  const admin = await createAdminWithKey(pool, ids, { name: adminName, acls: ADMIN_ACLS });
  return { hook, adminKey: admin.key, guild: await seedGuild(pool) };
}

export const reply = (answer: Answer): Reply => ({
  status: answer.status,
  retryAfter: answer.headers.get('retry-after'),
});

export interface MixedTrafficTargets {
  gatewayUrl: string;
  hook: { webhookId: string; token: string };
  adminKey: string;
  /** A guild whose assets are purged and to which users are bulk added, again and again. */
  guild: { guildId: string; userIds: string[] };
  /** Content of every execute answered 204, for the lost/duplicated count afterwards. */
  accepted: string[];
}

/**
 * Execute and admin traffic that between them touch every dependency of the request path:
 * `execute` (webhook lookup in PostgreSQL, enqueue in Redis), `execute-s3` (its body stored in
 * S3 first), admin reads and checks in PostgreSQL behind an admin key, and a guild asset purge
 * and a bulk member add, each waited for until its worker has done it (200). Those two start
 * with the outage: a queue the gateway first uses while the dependency is away must work again
 * after it, as well as one it was using all along.
 */
export function mixedTraffic({ gatewayUrl, hook, adminKey, guild, accepted }: MixedTrafficTargets): RequestKind[] {
  let sent = 0;
  const execute = (padding: number) => async (timeoutMs: number) => {
    const content = `outage ${sent++} ${'x'.repeat(padding)}`.trimEnd();
    const answer = await call('POST', `${gatewayUrl}/v1/webhooks/${hook.webhookId}/${hook.token}`, {
      body: { content },
      timeoutMs,
    });
    if (answer.status === 204) accepted.push(content);
    return reply(answer);
  };
  const admin = (path: string, body: unknown) => async (timeoutMs: number) =>
    reply(await call('POST', `${gatewayUrl}${path}`, { token: adminKey, scheme: 'Admin', body, timeoutMs }));
  return [
    { name: 'execute', expected: [204], send: execute(0) },
    { name: 'execute-s3', expected: [204], send: execute(INLINE_BODY_MAX_BYTES + 100) },
    { name: 'audit-logs', expected: [200], send: admin('/v1/admin/audit-logs', {}) },
    { name: 'archives-list', expected: [200], send: admin('/v1/admin/archives/list', {}) },
    {
      name: 'email-ban-check',
      expected: [200],
      send: admin('/v1/admin/bans/email/check', { email: 'someone@example.com' }),
    },
    {
      name: 'asset-purge',
      expected: [200],
      sinceOutage: true,
      send: admin('/v1/admin/assets/purge', { guild_id: guild.guildId }),
    },
    {
      name: 'bulk-add',
      expected: [200],
      sinceOutage: true,
      send: admin('/v1/admin/bulk/add-guild-members', { guild_id: guild.guildId, user_ids: guild.userIds }),
    },
  ];
}
