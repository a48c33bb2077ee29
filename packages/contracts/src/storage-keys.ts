/**
 * Where objects live in the bucket. Every process that writes or deletes one (the gateway, the
 * purge and archive workers, the CLI's demo data) builds its key here, so a purge deletes
 * exactly what was stored. Changing a layout strands the objects stored under the old one.
 */
const GUILD_ASSET_FOLDER: Record<string, string> = {
  icon: 'icons',
  banner: 'banners',
  splash: 'splashes',
  embed_splash: 'embed-splashes',
  discovery_splash: 'discovery-splashes',
};

export const storageKeys = {
  /** Every icon, banner and splash a guild ever had, by content hash. */
  guildAsset: (guildId: string, kind: string, hash: string) => `${GUILD_ASSET_FOLDER[kind] ?? kind}/${guildId}/${hash}`,
  emoji: (emojiId: string) => `emojis/${emojiId}`,
  sticker: (stickerId: string) => `stickers/${stickerId}`,
  /** Fluxer's layout (docs/decisions.md#fluxer-webhook-avatars) and Discord's CDN path. */
  webhookAvatar: (webhookId: string, hash: string) => `avatars/${webhookId}/${hash}`,
  /** Users' avatars share the layout (ids never collide: both are snowflakes). */
  userAvatar: (userId: string, hash: string) => `avatars/${userId}/${hash}`,
  /** An archive's ZIP (layout: docs/decisions.md#fluxer-archive-layout). */
  archive: (subjectType: 'user' | 'guild', subjectId: string, archiveId: string) =>
    subjectType === 'guild'
      ? `archives/guilds/${subjectId}/${archiveId}/guild-archive.zip`
      : `exports/${subjectId}/${archiveId}/user-data.zip`,
};
