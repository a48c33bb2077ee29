/**
 * Discord's permission bits that the seeded roles use. The @everyone role gets the ordinary
 * member set, which deliberately lacks MANAGE_WEBHOOKS (decisions §11).
 */
export const Permission = {
  CREATE_INSTANT_INVITE: 1n << 0n,
  KICK_MEMBERS: 1n << 1n,
  BAN_MEMBERS: 1n << 2n,
  ADMINISTRATOR: 1n << 3n,
  ADD_REACTIONS: 1n << 6n,
  VIEW_AUDIT_LOG: 1n << 7n,
  VIEW_CHANNEL: 1n << 10n,
  SEND_MESSAGES: 1n << 11n,
  MANAGE_MESSAGES: 1n << 13n,
  EMBED_LINKS: 1n << 14n,
  ATTACH_FILES: 1n << 15n,
  READ_MESSAGE_HISTORY: 1n << 16n,
  CONNECT: 1n << 20n,
  SPEAK: 1n << 21n,
  CHANGE_NICKNAME: 1n << 26n,
  MANAGE_WEBHOOKS: 1n << 29n,
} as const;

const P = Permission;

export const EVERYONE_PERMISSIONS =
  P.CREATE_INSTANT_INVITE | P.ADD_REACTIONS | P.VIEW_CHANNEL | P.SEND_MESSAGES | P.EMBED_LINKS | P.ATTACH_FILES |
  P.READ_MESSAGE_HISTORY | P.CONNECT | P.SPEAK | P.CHANGE_NICKNAME;

export const MODERATOR_PERMISSIONS = P.KICK_MEMBERS | P.BAN_MEMBERS | P.MANAGE_MESSAGES | P.VIEW_AUDIT_LOG;
