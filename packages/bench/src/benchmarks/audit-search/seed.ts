import type { Pool } from '@switchboard/db';

/** Reasons operators write; about half of the entries carry none. One is unique per entry. */
const REASONS = [
  'spam wave from botnet',
  'chargeback fraud',
  'ban evasion',
  'harassment reports',
  'automated abuse detection',
  'scheduled cleanup',
  'migration from legacy server',
  'requested by trust and safety',
  'credential stuffing',
  'phishing links',
  'spam',
  'raid on community',
  'duplicate account',
  'false positive, reverting',
  'compromised token',
];

/**
 * One statement per chunk, entirely in SQL (generate_series): entry `g` gets a kind by
 * `g % 20` (40 % IP bans and unbans, 15 % email, 10 % phone, 15 % bulk adds, 10 % asset
 * purges, 5 % archives, 5 % key management), a target derived from `g`, a reason for half of
 * them (one in sixteen of those unique: "ticket #n"), metadata as the writers record it, and a
 * time spread evenly over the last `days` days with a snowflake id made from that time.
 */
const SEED_CHUNK = `
WITH rows AS (
  SELECT g, g % 20 AS kind,
         $3::timestamptz + (g * $4::double precision) * interval '1 millisecond' AS at
  FROM generate_series($1::bigint, $2::bigint) AS g
), shaped AS (
  SELECT g, at,
    CASE WHEN kind < 8 THEN 'ip' WHEN kind < 11 THEN 'email' WHEN kind < 13 THEN 'phone'
         WHEN kind < 16 THEN 'guild' WHEN kind < 18 THEN 'guild_emoji' WHEN kind < 19 THEN 'user'
         ELSE 'admin_api_key' END AS target_type,
    CASE WHEN kind < 6 THEN 'ban_ip' WHEN kind < 8 THEN 'unban_ip' WHEN kind < 10 THEN 'ban_email'
         WHEN kind < 11 THEN 'unban_email' WHEN kind < 13 THEN 'ban_phone'
         WHEN kind < 16 THEN 'bulk_add_guild_members' WHEN kind < 18 THEN 'purge_guild_emoji_asset'
         WHEN kind < 19 THEN 'trigger_user_archive'
         WHEN g % 40 = 19 THEN 'create_admin_api_key' ELSE 'delete_admin_api_key' END AS action,
    CASE WHEN kind < 8 THEN '10.' || (g >> 16) % 256 || '.' || (g >> 8) % 256 || '.' || g % 256
         WHEN kind < 11 THEN 'user' || g % 50000 || '@example.com'
         WHEN kind < 13 THEN '+1555' || lpad((g % 10000000)::text, 7, '0')
         ELSE (100000000000000000 + g % 50000)::text END AS target_id,
    CASE WHEN g % 2 = 0 THEN NULL
         WHEN g % 32 = 1 THEN 'ticket #' || g
         ELSE ($5::text[])[1 + (g / 2) % array_length($5::text[], 1)] END AS reason,
    ($6::bigint[])[1 + (g * 31) % array_length($6::bigint[], 1)] AS admin_user_id
  FROM rows
)
INSERT INTO audit_logs (id, admin_user_id, target_type, target_id, action, audit_log_reason, metadata, created_at)
SELECT ((floor(extract(epoch FROM at) * 1000)::bigint - 1420070400000) << 22) | (g % 4096),
       admin_user_id, target_type, target_id, action, reason,
       CASE target_type
         WHEN 'ip' THEN jsonb_build_object('ip', target_id)
         WHEN 'email' THEN jsonb_build_object('email', target_id)
         WHEN 'phone' THEN jsonb_build_object('phone', target_id)
         WHEN 'guild' THEN jsonb_build_object('guild_id', target_id, 'user_count', (1 + g % 500)::text)
         WHEN 'guild_emoji' THEN jsonb_build_object('asset_id', target_id, 'guild_id', (200000000000000000 + g % 9000)::text)
         WHEN 'admin_api_key' THEN jsonb_build_object('name', 'key ' || g % 100, 'acls', 'ban:ip:add,ban:ip:check')
         ELSE jsonb_build_object('user_id', target_id)
       END,
       at
FROM shaped`;

export interface SeedOptions {
  entries: number;
  /** Acting admins (must exist), spread over the entries. */
  adminIds: string[];
  days: number;
  chunk?: number;
  onProgress?: (inserted: number) => void;
}

/** Inserts `entries` audit entries in chunks, then analyses the table for the planner. */
export async function seedAuditLogs(pool: Pool, options: SeedOptions): Promise<void> {
  const chunk = options.chunk ?? 100_000;
  const spanMs = options.days * 86_400_000;
  const start = new Date(Date.now() - spanMs);
  const stepMs = spanMs / options.entries;
  for (let from = 1; from <= options.entries; from += chunk) {
    const to = Math.min(options.entries, from + chunk - 1);
    await pool.query(SEED_CHUNK, [from, to, start, stepMs, REASONS, options.adminIds]);
    options.onProgress?.(to);
  }
  await pool.query('VACUUM (ANALYZE) audit_logs');
}
