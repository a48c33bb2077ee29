import { PutObjectCommand } from '@aws-sdk/client-s3';
import {
  insertChannels,
  insertEmojis,
  insertGuild,
  insertGuildAssets,
  insertMembers,
  insertRoles,
  insertStickers,
  insertUsers,
  insertUserTokens,
  withTransaction,
  type Pool,
  type Queryable,
} from '@switchboard/db';
import type { Storage } from '@switchboard/storage';
import { tokenRow, type GuildPlan, type SeedImage, type SeedUser } from './plan.ts';

/** Rows per INSERT … SELECT unnest(…): large enough to be fast, small enough for one message. */
const ROWS_PER_STATEMENT = 5_000;

async function inChunks<T>(rows: T[], write: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < rows.length; start += ROWS_PER_STATEMENT) {
    await write(rows.slice(start, start + ROWS_PER_STATEMENT));
  }
}

/** Users with an address each and their tokens (only the hashes are stored). */
export async function writeUsers(db: Queryable, users: SeedUser[]): Promise<void> {
  await inChunks(users, (chunk) =>
    insertUsers(
      db,
      chunk.map((u) => ({
        id: u.id,
        username: u.username,
        email: `${u.username}@example.test`,
        bot: u.kind === 'bot',
      })),
    ),
  );
  await inChunks(users, (chunk) => insertUserTokens(db, chunk.map(tokenRow)));
}

export async function uploadImages(storage: Storage, images: SeedImage[]): Promise<void> {
  await Promise.all(
    images.map((image) =>
      storage.client.send(
        new PutObjectCommand({
          Bucket: storage.bucket,
          Key: image.storageKey,
          Body: image.bytes,
          ContentType: 'image/png',
        }),
      ),
    ),
  );
}

function assetHash(plan: GuildPlan, kind: string): string | null {
  const image = plan.images.find((i) => i.target.table === 'guild_assets' && i.target.kind === kind);
  return image?.hash ?? null;
}

function stored(plan: GuildPlan, image: SeedImage) {
  return {
    id: image.id,
    guildId: plan.id,
    storageKey: image.storageKey,
    contentType: 'image/png',
    size: image.bytes.length,
  };
}

async function writeImages(db: Queryable, plan: GuildPlan): Promise<void> {
  const assets = [];
  const emojis = [];
  const stickers = [];
  for (const image of plan.images) {
    const target = image.target;
    if (target.table === 'guild_assets') assets.push({ ...stored(plan, image), kind: target.kind, hash: image.hash });
    else if (target.table === 'emojis')
      emojis.push({ ...stored(plan, image), name: target.name, creatorId: plan.owner.id });
    else
      stickers.push({
        ...stored(plan, image),
        name: target.name,
        description: 'Made by demo seed',
        tags: ['seed'],
        creatorId: plan.owner.id,
      });
  }
  await insertGuildAssets(db, assets);
  await insertEmojis(db, emojis);
  await insertStickers(db, stickers);
}

/** Uploads the guild's images, then writes every row of the guild (not its messages) in one transaction. */
export async function writeGuild(pool: Pool, storage: Storage, plan: GuildPlan): Promise<void> {
  await uploadImages(storage, plan.images);
  await withTransaction(pool, async (client) => {
    await writeUsers(client, [plan.owner, ...plan.members]);
    await insertGuild(client, {
      id: plan.id,
      name: plan.name,
      ownerId: plan.owner.id,
      iconHash: assetHash(plan, 'icon'),
      bannerHash: assetHash(plan, 'banner'),
      splashHash: assetHash(plan, 'splash'),
    });
    await insertChannels(client, plan.channels);
    await insertRoles(client, Object.values(plan.roles));
    await inChunks(plan.memberRows, (chunk) => insertMembers(client, plan.id, chunk));
    await writeImages(client, plan);
  });
}
