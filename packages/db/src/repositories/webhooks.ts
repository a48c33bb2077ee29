import type { UserPartialRecord } from '@switchboard/contracts';
import { withTransaction, type Pool, type PoolClient, type Queryable } from '../pool.ts';
import { openWebhookSecret, sealWebhookSecret, type SecretKeyring, type StoredSecret } from '../secrets.ts';

/** A `webhooks` row. `token` and `secret` never leave the server except `token` in webhook responses. */
export interface Webhook {
  id: string;
  /** 1 incoming, 2 channel follower. */
  type: number;
  guildId: string;
  channelId: string;
  /** Null once the creating user is deleted; the webhook keeps working. */
  creatorId: string | null;
  name: string;
  avatarHash: string | null;
  token: string;
  /**
   * Optional shared secret verifying X-Hub-Signature-256 / Sentry-Hook-Signature, as stored:
   * sealed under `secretKeyId` (openWebhookSecret), or as given when that is null.
   */
  secret: string | null;
  secretKeyId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** The creator's public user columns, as the webhook response's `user` shows them. */
export type WebhookCreator = UserPartialRecord;

export interface WebhookWithCreator extends Webhook {
  creator: WebhookCreator | null;
}

export interface NewWebhook {
  id: string;
  guildId: string;
  channelId: string;
  creatorId: string;
  name: string;
  avatarHash: string | null;
  token: string;
  /** As stored: sealWebhookSecret's output. */
  secret: StoredSecret | null;
}

export interface WebhookLimits {
  perChannel: number;
  perGuild: number;
}

/** Fields a PATCH changes; an absent key leaves the column as it is, `null` clears avatar or secret. */
export interface WebhookChanges {
  name?: string;
  avatarHash?: string | null;
  channelId?: string;
  secret?: StoredSecret | null;
}

const COLUMNS = `w.id, w.type, w.guild_id AS "guildId", w.channel_id AS "channelId", w.creator_id AS "creatorId",
  w.name, w.avatar_hash AS "avatarHash", w.token, w.secret, w.secret_key_id AS "secretKeyId", w.created_at AS "createdAt", w.updated_at AS "updatedAt"`;

// int8 columns go through text so that json keeps them exact.
const CREATOR = `CASE WHEN u.id IS NULL THEN NULL ELSE json_build_object(
  'id', u.id::text, 'username', u.username, 'discriminator', u.discriminator, 'globalName', u.global_name,
  'avatarHash', u.avatar_hash, 'flags', u.flags::text, 'bot', u.bot, 'system', u.system) END AS creator`;

const WITH_CREATOR = `SELECT ${COLUMNS}, ${CREATOR} FROM webhooks w LEFT JOIN users u ON u.id = w.creator_id`;

/**
 * The columns of a webhook an execution checks: its token (in constant time, by the caller) and
 * secret, as stored (the caller opens it with its keyring).
 */
export interface ExecutionWebhookRow {
  id: string;
  token: string;
  secret: StoredSecret | null;
}

/** An execution's webhook with its secret opened: what the routes verify signatures with. */
export interface ExecutionWebhook {
  id: string;
  token: string;
  secret: string | null;
}

const FIND_FOR_EXECUTION = `
SELECT w.id, w.token, w.secret, w.secret_key_id
FROM unnest($1::bigint[]) WITH ORDINALITY AS i(id, ord) LEFT JOIN webhooks w ON w.id = i.id
ORDER BY i.ord`;

/**
 * The webhooks of several execution requests in ONE statement (one round trip for all of them),
 * in the order of `webhookIds`: null where there is none with that id. Named, so each connection
 * parses and plans it once. A delivery's dedupe key is not taken here: the worker takes it with
 * the message (storeWebhookMessages).
 */
export async function findWebhooksForExecution(
  db: Queryable,
  webhookIds: readonly string[],
): Promise<(ExecutionWebhookRow | null)[]> {
  const { rows } = await db.query<{
    id: string | null;
    token: string | null;
    secret: string | null;
    secret_key_id: string | null;
  }>({
    name: 'webhook-execution-lookup',
    text: FIND_FOR_EXECUTION,
    values: [webhookIds],
  });
  return webhookIds.map((_, index) => {
    const row = rows[index];
    if (!row || row.id === null || row.token === null) return null;
    const secret = row.secret === null ? null : { secret: row.secret, keyId: row.secret_key_id };
    return { id: row.id, token: row.token, secret };
  });
}

/** The webhook alone (one primary-key read). */
export async function findWebhookById(db: Queryable, id: string): Promise<Webhook | null> {
  const { rows } = await db.query<Webhook>(`SELECT ${COLUMNS} FROM webhooks w WHERE w.id = $1`, [id]);
  return rows[0] ?? null;
}

export async function findWebhookWithCreator(db: Queryable, id: string): Promise<WebhookWithCreator | null> {
  const { rows } = await db.query<WebhookWithCreator>(`${WITH_CREATOR} WHERE w.id = $1`, [id]);
  return rows[0] ?? null;
}

export async function listChannelWebhooks(db: Queryable, channelId: string): Promise<WebhookWithCreator[]> {
  const { rows } = await db.query<WebhookWithCreator>(`${WITH_CREATOR} WHERE w.channel_id = $1 ORDER BY w.id`, [
    channelId,
  ]);
  return rows;
}

export async function listGuildWebhooks(db: Queryable, guildId: string): Promise<WebhookWithCreator[]> {
  const { rows } = await db.query<WebhookWithCreator>(`${WITH_CREATOR} WHERE w.guild_id = $1 ORDER BY w.id`, [guildId]);
  return rows;
}

/**
 * Serialises webhook writes of one guild, so that count-then-write cannot exceed a limit
 * under concurrency. FOR NO KEY UPDATE (not FOR UPDATE): it conflicts with itself, but not
 * with the key-share locks that inserting messages, channels or members (foreign keys to the
 * guild) take, so a burst of webhook creates never stalls the guild's traffic.
 */
async function lockGuildForWebhooks(client: PoolClient, guildId: string): Promise<boolean> {
  const { rowCount } = await client.query('SELECT 1 FROM guilds WHERE id = $1 FOR NO KEY UPDATE', [guildId]);
  return rowCount === 1;
}

async function countWebhooks(client: PoolClient, guildId: string, channelId: string) {
  const { rows } = await client.query<{ guild: number; channel: number }>(
    `SELECT count(*)::int AS guild, count(*) FILTER (WHERE channel_id = $2)::int AS channel
     FROM webhooks WHERE guild_id = $1`,
    [guildId, channelId],
  );
  return rows[0]!;
}

export type LimitedWrite<T> = { ok: T } | { full: 'guild' | 'channel' };

/**
 * Inserts a webhook unless its guild or channel is full (the guild is checked first, as
 * Fluxer does). Count and insert run in one transaction under the guild lock: concurrent
 * creates never end above the limits. `full: 'guild'` also covers a guild that is gone.
 */
export async function createWebhookWithinLimits(
  pool: Pool,
  webhook: NewWebhook,
  limits: WebhookLimits,
): Promise<LimitedWrite<WebhookWithCreator>> {
  return withTransaction(pool, async (client) => {
    if (!(await lockGuildForWebhooks(client, webhook.guildId))) return { full: 'guild' as const };
    const counts = await countWebhooks(client, webhook.guildId, webhook.channelId);
    if (counts.guild >= limits.perGuild) return { full: 'guild' as const };
    if (counts.channel >= limits.perChannel) return { full: 'channel' as const };
    await client.query(
      `INSERT INTO webhooks (id, type, guild_id, channel_id, creator_id, name, avatar_hash, token, secret, secret_key_id)
       VALUES ($1, 1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [
        webhook.id,
        webhook.guildId,
        webhook.channelId,
        webhook.creatorId,
        webhook.name,
        webhook.avatarHash,
        webhook.token,
        webhook.secret?.secret ?? null,
        webhook.secret?.keyId ?? null,
      ],
    );
    return { ok: (await findWebhookWithCreator(client, webhook.id))! };
  });
}

/**
 * The update statement, with `secret` set only when it changes: an UPDATE naming the column
 * fires the credentials trigger (migration 0010), which empties every gateway's webhook cache.
 */
function updateStatement(setsSecret: boolean): string {
  return `WITH w AS (
       UPDATE webhooks SET
         name = coalesce($2, name),
         avatar_hash = CASE WHEN $3::boolean THEN $4 ELSE avatar_hash END,
         channel_id = coalesce($5::bigint, channel_id),
         ${setsSecret ? 'secret = $6, secret_key_id = $7,' : ''}
         updated_at = now()
       WHERE id = $1
       RETURNING *
     )
     SELECT ${COLUMNS}, ${CREATOR} FROM w LEFT JOIN users u ON u.id = w.creator_id`;
}

const UPDATE_KEEPING_SECRET = updateStatement(false);
const UPDATE_SETTING_SECRET = updateStatement(true);

/** Applies `changes`; null when the webhook no longer exists. */
export async function updateWebhook(
  db: Queryable,
  id: string,
  changes: WebhookChanges,
): Promise<WebhookWithCreator | null> {
  const values = [
    id,
    changes.name ?? null,
    changes.avatarHash !== undefined,
    changes.avatarHash ?? null,
    changes.channelId ?? null,
  ];
  const { rows } =
    changes.secret === undefined
      ? await db.query<WebhookWithCreator>(UPDATE_KEEPING_SECRET, values)
      : await db.query<WebhookWithCreator>(UPDATE_SETTING_SECRET, [
          ...values,
          changes.secret?.secret ?? null,
          changes.secret?.keyId ?? null,
        ]);
  return rows[0] ?? null;
}

/**
 * Applies `changes`, which move the webhook to `changes.channelId` in `guildId`, unless that
 * channel already holds `perChannel` webhooks (counted under the guild lock, as creates are).
 * Null when the webhook no longer exists. `client` must be in a transaction (the lock is held
 * to its end).
 */
export async function moveWebhookWithinLimit(
  client: PoolClient,
  id: string,
  guildId: string,
  changes: WebhookChanges & { channelId: string },
  perChannel: number,
): Promise<LimitedWrite<WebhookWithCreator> | null> {
  await lockGuildForWebhooks(client, guildId);
  const { channel } = await countWebhooks(client, guildId, changes.channelId);
  if (channel >= perChannel) return { full: 'channel' as const };
  const updated = await updateWebhook(client, id, changes);
  return updated ? { ok: updated } : null;
}

/** Deletes a webhook; returns the deleted row, or null when there was none. */
export async function deleteWebhook(db: Queryable, id: string): Promise<Webhook | null> {
  const { rows } = await db.query<Webhook>(`DELETE FROM webhooks w WHERE w.id = $1 RETURNING ${COLUMNS}`, [id]);
  return rows[0] ?? null;
}

/** Rows re-sealed per statement by resealWebhookSecrets. */
const RESEAL_BATCH = 500;

/**
 * Seals every webhook secret not yet under the keyring's write key: plaintext rows (written
 * before encryption) and rows under an older key (rotation). Idempotent: a second run finds
 * nothing; each row is updated only if its secret is still the one read, so a secret changed
 * meanwhile through the API is left as the API wrote it. Answers the rows re-sealed.
 */
export async function resealWebhookSecrets(pool: Pool, keyring: SecretKeyring): Promise<number> {
  if (keyring.writeKeyId === null) return 0;
  let resealed = 0;
  let after = '0';
  for (;;) {
    const { rows } = await pool.query<{ id: string; secret: string; secret_key_id: string | null }>(
      `SELECT id::text, secret, secret_key_id FROM webhooks
        WHERE secret IS NOT NULL AND secret_key_id IS DISTINCT FROM $1 AND id > $2
        ORDER BY id LIMIT $3`,
      [keyring.writeKeyId, after, RESEAL_BATCH],
    );
    if (rows.length === 0) return resealed;
    for (const row of rows) {
      const plaintext = openWebhookSecret(keyring, row.id, { secret: row.secret, keyId: row.secret_key_id });
      const sealed = sealWebhookSecret(keyring, row.id, plaintext);
      const { rowCount } = await pool.query(
        `UPDATE webhooks SET secret = $2, secret_key_id = $3
          WHERE id = $1 AND secret = $4 AND secret_key_id IS NOT DISTINCT FROM $5`,
        [row.id, sealed.secret, sealed.keyId, row.secret, row.secret_key_id],
      );
      resealed += rowCount ?? 0;
    }
    after = rows.at(-1)!.id;
  }
}
