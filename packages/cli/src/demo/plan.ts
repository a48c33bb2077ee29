import { generateUserToken, hashCredential } from '@switchboard/auth';
import { Permission, storageKeys } from '@switchboard/contracts';
import { ChannelType, type GuildAssetKind, type NewChannel, type NewMember, type NewRole } from '@switchboard/db';
import type { SnowflakeGenerator } from '@switchboard/snowflake';
import { colourFor, gradientPng, imageHash } from './png.ts';
import { EVERYONE_PERMISSIONS, MODERATOR_PERMISSIONS } from './permissions.ts';

export interface SeedUser {
  id: string;
  username: string;
  token: string;
  kind: 'user' | 'bot';
}

export interface SeedImage {
  id: string;
  /** Guild assets have a kind; emojis and stickers are their own tables. */
  target: { table: 'guild_assets'; kind: GuildAssetKind } | { table: 'emojis' | 'stickers'; name: string };
  hash: string;
  storageKey: string;
  bytes: Buffer;
}

export interface GuildPlan {
  id: string;
  name: string;
  owner: SeedUser;
  members: SeedUser[];
  roles: { everyone: NewRole; owner: NewRole; moderator: NewRole; webhookManager: NewRole };
  channels: NewChannel[];
  textChannelIds: string[];
  memberRows: NewMember[];
  images: SeedImage[];
}

export function makeUser(ids: SnowflakeGenerator, username: string, kind: 'user' | 'bot' = 'user'): SeedUser {
  const id = ids.next();
  return { id, username, token: generateUserToken(id), kind };
}

export function tokenRow(user: SeedUser) {
  return { tokenHash: hashCredential(user.token), userId: user.id, kind: user.kind };
}

function roles(ids: SnowflakeGenerator, guildId: string): GuildPlan['roles'] {
  const role = (name: string, permissions: bigint, position: number, color: number): NewRole => ({
    id: ids.next(),
    guildId,
    name,
    permissions,
    position,
    color,
  });
  return {
    // The @everyone role's id is the guild's id.
    everyone: { id: guildId, guildId, name: '@everyone', permissions: EVERYONE_PERMISSIONS, position: 0 },
    webhookManager: role('Webhook Manager', Permission.MANAGE_WEBHOOKS, 1, 0x3498db),
    moderator: role('Moderator', MODERATOR_PERMISSIONS, 2, 0x2ecc71),
    owner: role('Owner', Permission.ADMINISTRATOR, 3, 0xe74c3c),
  };
}

function channels(ids: SnowflakeGenerator, guildId: string, textCount: number): NewChannel[] {
  const categoryId = ids.next();
  const text = Array.from(
    { length: textCount },
    (_, i): NewChannel => ({
      id: ids.next(),
      guildId,
      type: ChannelType.GuildText,
      name: i === 0 ? 'general' : `channel-${i + 1}`,
      position: i + 1,
      parentId: categoryId,
      topic: `Seeded text channel ${i + 1}`,
    }),
  );
  return [
    { id: categoryId, guildId, type: ChannelType.GuildCategory, name: 'Text Channels', position: 0 },
    ...text,
    { id: ids.next(), guildId, type: ChannelType.GuildVoice, name: 'Voice', position: textCount + 1 },
  ];
}

/** Guild icon, banner and splash, two emojis and a sticker: small real PNGs. */
function images(ids: SnowflakeGenerator, guildId: string): SeedImage[] {
  const assets = (['icon', 'banner', 'splash'] as const).map((kind): SeedImage => {
    const bytes = gradientPng(kind === 'icon' ? 64 : 32, colourFor(`${guildId}:${kind}`));
    const hash = imageHash(bytes);
    return {
      id: ids.next(),
      target: { table: 'guild_assets', kind },
      hash,
      storageKey: storageKeys.guildAsset(guildId, kind, hash),
      bytes,
    };
  });
  const expression = (table: 'emojis' | 'stickers', name: string): SeedImage => {
    const id = ids.next();
    const bytes = gradientPng(32, colourFor(`${id}:${name}`));
    const storageKey = table === 'emojis' ? storageKeys.emoji(id) : storageKeys.sticker(id);
    return { id, target: { table, name }, hash: imageHash(bytes), storageKey, bytes };
  };
  return [
    ...assets,
    expression('emojis', 'seed_wave'),
    expression('emojis', 'seed_party'),
    expression('stickers', 'Seed sticker'),
  ];
}

/**
 * Everything of one guild, decided in memory before anything is written: the owner (Owner
 * role, ADMINISTRATOR), `memberCount` ordinary members (the first a Moderator; none can
 * manage webhooks), the shared bot (Webhook Manager), channels, roles and images.
 */
export function planGuild(
  ids: SnowflakeGenerator,
  {
    tag,
    index,
    textChannels,
    memberCount,
    bot,
  }: { tag: string; index: number; textChannels: number; memberCount: number; bot: SeedUser },
): GuildPlan {
  const id = ids.next();
  const owner = makeUser(ids, `owner_${tag}_${index}`);
  const members = Array.from({ length: memberCount }, (_, i) => makeUser(ids, `member_${tag}_${index}_${i + 1}`));
  const guildRoles = roles(ids, id);
  const guildChannels = channels(ids, id, textChannels);
  const memberRows: NewMember[] = [
    { userId: owner.id, roleIds: [guildRoles.owner.id] },
    ...members.map((m, i) => ({ userId: m.id, roleIds: i === 0 ? [guildRoles.moderator.id] : [] })),
    { userId: bot.id, roleIds: [guildRoles.webhookManager.id] },
  ];
  return {
    id,
    name: `Seed guild ${index} (${tag})`,
    owner,
    members,
    roles: guildRoles,
    channels: guildChannels,
    textChannelIds: guildChannels.filter((c) => c.type === ChannelType.GuildText).map((c) => c.id),
    memberRows,
    images: images(ids, id),
  };
}
