/**
 * Discord's guild permission bits (bigint: the field is 64 bits wide), stored in
 * `roles.permissions` and in channel overwrites. How a member's permissions are computed from
 * them is the gateway's (services/gateway/src/permissions), in one place.
 */
export const Permission = {
  CREATE_INSTANT_INVITE: 1n << 0n,
  KICK_MEMBERS: 1n << 1n,
  BAN_MEMBERS: 1n << 2n,
  ADMINISTRATOR: 1n << 3n,
  MANAGE_CHANNELS: 1n << 4n,
  MANAGE_GUILD: 1n << 5n,
  ADD_REACTIONS: 1n << 6n,
  VIEW_AUDIT_LOG: 1n << 7n,
  VIEW_CHANNEL: 1n << 10n,
  SEND_MESSAGES: 1n << 11n,
  MANAGE_MESSAGES: 1n << 13n,
  EMBED_LINKS: 1n << 14n,
  ATTACH_FILES: 1n << 15n,
  READ_MESSAGE_HISTORY: 1n << 16n,
  MENTION_EVERYONE: 1n << 17n,
  CONNECT: 1n << 20n,
  SPEAK: 1n << 21n,
  CHANGE_NICKNAME: 1n << 26n,
  MANAGE_NICKNAMES: 1n << 27n,
  MANAGE_ROLES: 1n << 28n,
  /** `1 << 29` = 536870912 (docs/decisions.md#fluxer-webhook-permission-and-limits). */
  MANAGE_WEBHOOKS: 1n << 29n,
} as const;

export type PermissionName = keyof typeof Permission;

/** Every bit of the 64-bit field: what the owner and administrators hold. */
export const ALL_PERMISSIONS = (1n << 64n) - 1n;

export function hasPermission(permissions: bigint, required: bigint): boolean {
  return (permissions & required) === required;
}
