import type { Queryable } from '../pool.ts';

/** A row a purge removed, with the object it pointed to. */
export interface RemovedAsset {
  id: string;
  guildId: string;
  /** emoji, sticker, icon, banner, splash, embed_splash, discovery_splash, webhook_avatar. */
  assetType: string;
  storageKey: string;
}

/** Deletes the emojis and stickers among `ids` (one statement each); what was found, with keys. */
export async function deleteExpressionsById(db: Queryable, ids: readonly string[]): Promise<RemovedAsset[]> {
  if (ids.length === 0) return [];
  const { rows } = await db.query<RemovedAsset>(
    `WITH emoji AS (
       DELETE FROM emojis WHERE id = ANY($1::bigint[])
       RETURNING id::text, guild_id::text AS "guildId", 'emoji' AS "assetType", storage_key AS "storageKey"
     ), sticker AS (
       DELETE FROM stickers WHERE id = ANY($1::bigint[])
       RETURNING id::text, guild_id::text AS "guildId", 'sticker' AS "assetType", storage_key AS "storageKey"
     )
     SELECT * FROM emoji UNION ALL SELECT * FROM sticker`,
    [ids],
  );
  return rows;
}

/**
 * Removes every stored image of a guild in one statement: emojis, stickers, guild assets (every
 * icon, banner and splash ever stored) and webhook avatars (cleared on the webhooks), and
 * clears the guild's current image hashes. Returns what was removed, with object keys (a
 * webhook avatar's key is built by the caller from the webhook id and `avatarHash`).
 */
export async function deleteGuildAssets(
  db: Queryable,
  guildId: string,
): Promise<Array<RemovedAsset & { avatarHash?: string }>> {
  const { rows } = await db.query<RemovedAsset & { avatarHash?: string }>(
    `WITH emoji AS (
       DELETE FROM emojis WHERE guild_id = $1
       RETURNING id::text, 'emoji'::text AS "assetType", storage_key AS "storageKey", NULL::text AS "avatarHash"
     ), sticker AS (
       DELETE FROM stickers WHERE guild_id = $1
       RETURNING id::text, 'sticker'::text, storage_key, NULL::text
     ), asset AS (
       DELETE FROM guild_assets WHERE guild_id = $1
       RETURNING id::text, kind, storage_key, NULL::text
     ), avatar AS (
       UPDATE webhooks w SET avatar_hash = NULL, updated_at = now()
       FROM (SELECT id, avatar_hash FROM webhooks WHERE guild_id = $1 AND avatar_hash IS NOT NULL FOR UPDATE) old
       WHERE w.id = old.id
       RETURNING w.id::text, 'webhook_avatar'::text, NULL::text, old.avatar_hash
     ), guild AS (
       UPDATE guilds SET icon_hash = NULL, banner_hash = NULL, splash_hash = NULL, embed_splash_hash = NULL
       WHERE id = $1 AND num_nonnulls(icon_hash, banner_hash, splash_hash, embed_splash_hash) > 0
     )
     SELECT *, $1::text AS "guildId" FROM (
       SELECT * FROM emoji UNION ALL SELECT * FROM sticker UNION ALL SELECT * FROM asset UNION ALL SELECT * FROM avatar
     ) removed`,
    [guildId],
  );
  return rows;
}

/**
 * Records what phase one of a purge removed (the per-item result so far and the object keys
 * still to delete) on its row, in the transaction that removed it.
 */
export async function recordPurgeRemovals(
  db: Queryable,
  purgeId: string,
  partialResult: unknown,
  objectKeys: readonly string[],
): Promise<void> {
  await db.query(`UPDATE asset_purges SET result = $2, object_keys = $3 WHERE id = $1 AND status = 'running'`, [
    purgeId,
    JSON.stringify(partialResult),
    objectKeys,
  ]);
}

/** The object keys phase one recorded, or null when it has not run. */
export async function findPurgeObjectKeys(db: Queryable, purgeId: string): Promise<string[] | null> {
  const { rows } = await db.query<{ objectKeys: string[] | null }>(
    `SELECT object_keys AS "objectKeys" FROM asset_purges WHERE id = $1`,
    [purgeId],
  );
  return rows[0]?.objectKeys ?? null;
}
