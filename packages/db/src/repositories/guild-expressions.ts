import type { Queryable } from '../pool.ts';

/** A stored image of a guild: emoji, sticker or guild asset (icon, banner, splash, …). */
interface StoredObject {
  id: string;
  guildId: string;
  storageKey: string;
  contentType: string;
  size: number;
}

export interface NewEmoji extends StoredObject {
  name: string;
  animated?: boolean;
  creatorId: string | null;
}

export interface NewSticker extends StoredObject {
  name: string;
  description?: string | null;
  tags?: string[];
  creatorId: string | null;
}

export type GuildAssetKind = 'icon' | 'banner' | 'splash' | 'embed_splash' | 'discovery_splash';

export interface NewGuildAsset extends StoredObject {
  kind: GuildAssetKind;
  hash: string;
}

export async function insertEmojis(db: Queryable, emojis: NewEmoji[]): Promise<number> {
  if (emojis.length === 0) return 0;
  const result = await db.query(
    `INSERT INTO emojis (id, guild_id, name, animated, creator_id, storage_key, content_type, size)
     SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::boolean[], $5::bigint[], $6::text[], $7::text[], $8::bigint[])`,
    [
      emojis.map((e) => e.id),
      emojis.map((e) => e.guildId),
      emojis.map((e) => e.name),
      emojis.map((e) => e.animated ?? false),
      emojis.map((e) => e.creatorId),
      emojis.map((e) => e.storageKey),
      emojis.map((e) => e.contentType),
      emojis.map((e) => e.size),
    ],
  );
  return result.rowCount ?? 0;
}

export async function insertStickers(db: Queryable, stickers: NewSticker[]): Promise<number> {
  if (stickers.length === 0) return 0;
  // tags travel as array literals because unnest cannot yield arrays of arrays.
  const result = await db.query(
    `INSERT INTO stickers (id, guild_id, name, description, tags, creator_id, storage_key, content_type, size)
     SELECT s.id, s.guild_id, s.name, s.description, s.tags::text[], s.creator_id, s.storage_key, s.content_type, s.size
     FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::text[], $8::text[], $9::bigint[])
       AS s (id, guild_id, name, description, tags, creator_id, storage_key, content_type, size)`,
    [
      stickers.map((s) => s.id),
      stickers.map((s) => s.guildId),
      stickers.map((s) => s.name),
      stickers.map((s) => s.description ?? null),
      stickers.map((s) => toArrayLiteral(s.tags ?? [])),
      stickers.map((s) => s.creatorId),
      stickers.map((s) => s.storageKey),
      stickers.map((s) => s.contentType),
      stickers.map((s) => s.size),
    ],
  );
  return result.rowCount ?? 0;
}

export async function insertGuildAssets(db: Queryable, assets: NewGuildAsset[]): Promise<number> {
  if (assets.length === 0) return 0;
  const result = await db.query(
    `INSERT INTO guild_assets (id, guild_id, kind, hash, storage_key, content_type, size)
     SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[])`,
    [
      assets.map((a) => a.id),
      assets.map((a) => a.guildId),
      assets.map((a) => a.kind),
      assets.map((a) => a.hash),
      assets.map((a) => a.storageKey),
      assets.map((a) => a.contentType),
      assets.map((a) => a.size),
    ],
  );
  return result.rowCount ?? 0;
}

/** A PostgreSQL array literal of strings, each quoted and escaped. */
function toArrayLiteral(values: string[]): string {
  return `{${values.map((v) => `"${v.replace(/["\\]/g, '\\$&')}"`).join(',')}}`;
}
