import { createAdminWithKey, generateWebhookToken } from '@switchboard/auth';
import { ACL, LIMITS } from '@switchboard/contracts';
import {
  ChannelType,
  createWebhookWithinLimits,
  insertAdminUser,
  insertChannels,
  insertGeneratedMessages,
  insertGuild,
  insertMembers,
  insertUsers,
  upsertValueBans,
  type Pool,
} from '@switchboard/db';
import type { SnowflakeGenerator } from '@switchboard/snowflake';
import { seedAuditLogs } from '../audit-search/seed.ts';
import { seedIpBans, type BanSeed } from '../ban-check/seed.ts';
import type { ExecutePayload } from './payloads.ts';

/** Everything the mixed load's admin requests need. */
export const SYSTEM_ACLS = [
  ACL.authenticate,
  ACL.banIpAdd,
  ACL.banIpCheck,
  ACL.banIpRemove,
  ACL.banEmailAdd,
  ACL.banEmailCheck,
  ACL.banEmailRemove,
  ACL.auditLogView,
  ACL.archiveTriggerGuild,
  ACL.archiveViewAll,
  ACL.assetPurge,
  ACL.bulkAddGuildMembers,
];

const IP_BANS: BanSeed = { ipv4Singles: 90_000, ipv6Singles: 5_000, ipv4Ranges: 5_000 };
const EMAIL_BANS = 2_000;
const AUDIT_ENTRIES = 100_000;
const AUDIT_ADMINS = 4;
/** The guild's own history, for its archives (the executes add to it as the run goes). */
const GUILD_MESSAGES = 20_000;
/** Snowflake worker of this benchmark's seed (other benchmarks use 1001-1004 and 1010). */
export const SYSTEM_SEED_WORKER_ID = 1005;
const SNOWFLAKE_EPOCH_MS = 1420070400000;

export interface SeededHook {
  format: ExecutePayload['format'];
  webhookId: string;
  token: string;
}

export interface SeededGuild {
  guildId: string;
  ownerId: string;
  hooks: SeededHook[];
  adminKey: string;
  adminUserId: string;
  /** An email among the seeded bans. */
  bannedEmail: string;
}

/** A guild with one text channel and webhook per execute format, and its past messages. */
async function seedGuildWithHooks(pool: Pool, ids: SnowflakeGenerator, formats: ExecutePayload['format'][]) {
  const ownerId = ids.next();
  const guildId = ids.next();
  await insertUsers(pool, [{ id: ownerId, username: 'bench_system_owner' }]);
  await insertGuild(pool, { id: guildId, name: 'bench system', ownerId, maxMembers: 10_000_000 });
  await insertMembers(pool, guildId, [{ userId: ownerId }]);
  const channelIds = formats.map(() => ids.next());
  await insertChannels(
    pool,
    formats.map((format, position) => ({
      id: channelIds[position]!,
      guildId,
      type: ChannelType.GuildText,
      name: `${format}-feed`,
      position,
    })),
  );
  const limits = { perChannel: LIMITS.webhooks.perChannel, perGuild: LIMITS.webhooks.perGuild };
  const hooks: SeededHook[] = [];
  for (const [index, format] of formats.entries()) {
    const hook = { format, webhookId: ids.next(), token: generateWebhookToken() };
    const created = await createWebhookWithinLimits(
      pool,
      {
        id: hook.webhookId,
        guildId,
        channelId: channelIds[index]!,
        creatorId: ownerId,
        name: `${format} hook`,
        avatarHash: null,
        token: hook.token,
        secret: null,
      },
      limits,
    );
    if (!('ok' in created)) throw new Error(`webhook limit reached seeding the ${format} hook`);
    hooks.push(hook);
  }
  // A block of message ids a day in the past: the seed's generator only mints ids for now.
  await insertGeneratedMessages(pool, {
    guildId,
    channelIds,
    authorIds: [ownerId],
    phrases: ['Deploy finished', 'Build failed on main', 'New issue opened', 'Weekly report'],
    startMs: BigInt(Date.now() - 86_400_000 - SNOWFLAKE_EPOCH_MS),
    workerId: SYSTEM_SEED_WORKER_ID,
    from: 0,
    to: GUILD_MESSAGES,
  });
  await pool.query('ANALYZE messages');
  return { guildId, ownerId, hooks };
}

/**
 * The guild and its webhooks, the admin key, IP and email bans and an audit log for the admin
 * reads, all written directly into the run's database.
 */
export async function seedGuild(
  pool: Pool,
  ids: SnowflakeGenerator,
  formats: ExecutePayload['format'][],
  log: (message: string) => void,
): Promise<SeededGuild> {
  const guild = await seedGuildWithHooks(pool, ids, formats);
  const { key, admin } = await createAdminWithKey(pool, ids, { name: 'bench-system', acls: SYSTEM_ACLS });
  await seedIpBans(pool, IP_BANS, log);
  const emails = Array.from({ length: EMAIL_BANS }, (_, index) => `spammer${index}@example.com`);
  await upsertValueBans(pool, 'email', emails, { reason: 'bench seed', expiresAt: null, createdBy: admin.id });
  const adminIds = [admin.id];
  for (let index = 1; index < AUDIT_ADMINS; index++) {
    adminIds.push((await insertAdminUser(pool, { id: ids.next(), name: `bench-system-${index}`, acls: [] })).id);
  }
  await seedAuditLogs(pool, { entries: AUDIT_ENTRIES, adminIds, days: 90 });
  log(
    `seeded a guild of ${GUILD_MESSAGES} messages, ${formats.length} webhooks, bans and ${AUDIT_ENTRIES} audit entries`,
  );
  return { ...guild, adminKey: key, adminUserId: admin.id, bannedEmail: emails[0]! };
}
