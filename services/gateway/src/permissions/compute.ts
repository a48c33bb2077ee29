import { ALL_PERMISSIONS, Permission } from '@switchboard/contracts';

/** A pair of overwrite bit sets (bigint: the field is 64 bits wide). */
export interface Overwrite {
  allow: bigint;
  deny: bigint;
}

/** The channel's overwrites that concern one member, already picked out of the channel's list. */
export interface MemberOverwrites {
  /** The overwrite of the @everyone role (target id = guild id). */
  everyone: Overwrite;
  /** The member's roles' overwrites, OR-ed together (Discord applies them as one). */
  roles: Overwrite;
  /** The overwrite naming the member. */
  member: Overwrite;
}

const NONE: Overwrite = { allow: 0n, deny: 0n };
export const NO_OVERWRITES: MemberOverwrites = { everyone: NONE, roles: NONE, member: NONE };

/**
 * A member's permissions, as Discord computes them. Base: the OR of @everyone and the member's
 * roles; the guild owner and ADMINISTRATOR holders have every bit, and overwrites cannot take
 * any away from them. Then, in a channel, each layer of overwrites in turn (@everyone, the
 * roles together, the member) first removes its denied bits, then adds its allowed ones, so a
 * more specific layer wins over a broader one. Outside a channel pass NO_OVERWRITES.
 */
export function computePermissions(
  standing: { isOwner: boolean; rolePermissions: bigint },
  overwrites: MemberOverwrites,
): bigint {
  if (standing.isOwner || (standing.rolePermissions & Permission.ADMINISTRATOR) !== 0n) return ALL_PERMISSIONS;
  let permissions = standing.rolePermissions;
  for (const layer of [overwrites.everyone, overwrites.roles, overwrites.member]) {
    permissions = (permissions & ~layer.deny) | layer.allow;
  }
  return permissions & ALL_PERMISSIONS;
}
