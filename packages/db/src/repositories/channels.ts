import type { Queryable } from '../pool.ts';

/** Discord's channel types that this service stores. */
export const ChannelType = {
  GuildText: 0,
  Dm: 1,
  GuildVoice: 2,
  GroupDm: 3,
  GuildCategory: 4,
  GuildAnnouncement: 5,
} as const;

/** The guild channels whose messages are a text feed: the only ones a webhook may post to. */
export const WEBHOOK_CHANNEL_TYPES: ReadonlySet<number> = new Set([
  ChannelType.GuildText,
  ChannelType.GuildAnnouncement,
]);

export interface Channel {
  id: string;
  guildId: string | null;
  type: number;
  name: string | null;
  topic: string | null;
  position: number;
  parentId: string | null;
  createdAt: Date;
}

export interface NewChannel {
  id: string;
  guildId: string;
  type: number;
  name: string;
  position: number;
  parentId?: string | null;
  topic?: string | null;
}

const COLUMNS = `id, guild_id AS "guildId", type, name, topic, position, parent_id AS "parentId", created_at AS "createdAt"`;

/** Inserts guild channels in one statement (parents may be in the same batch). */
export async function insertChannels(db: Queryable, channels: NewChannel[]): Promise<number> {
  if (channels.length === 0) return 0;
  const result = await db.query(
    `INSERT INTO channels (id, guild_id, type, name, position, parent_id, topic)
     SELECT * FROM unnest($1::bigint[], $2::bigint[], $3::smallint[], $4::text[], $5::int[], $6::bigint[], $7::text[])`,
    [
      channels.map((c) => c.id),
      channels.map((c) => c.guildId),
      channels.map((c) => c.type),
      channels.map((c) => c.name),
      channels.map((c) => c.position),
      channels.map((c) => c.parentId ?? null),
      channels.map((c) => c.topic ?? null),
    ],
  );
  return result.rowCount ?? 0;
}

export async function findChannelById(db: Queryable, id: string): Promise<Channel | null> {
  const { rows } = await db.query<Channel>(`SELECT ${COLUMNS} FROM channels WHERE id = $1`, [id]);
  return rows[0] ?? null;
}

export async function listGuildChannels(db: Queryable, guildId: string): Promise<Channel[]> {
  const { rows } = await db.query<Channel>(
    `SELECT ${COLUMNS} FROM channels WHERE guild_id = $1 ORDER BY position, id`,
    [guildId],
  );
  return rows;
}
