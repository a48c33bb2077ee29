import { Permission } from '@switchboard/contracts';

/**
 * The permission sets of the seeded roles. The @everyone role gets the ordinary member set,
 * which deliberately lacks MANAGE_WEBHOOKS (docs/decisions.md#domain-data).
 */
const P = Permission;

export const EVERYONE_PERMISSIONS =
  P.CREATE_INSTANT_INVITE |
  P.ADD_REACTIONS |
  P.VIEW_CHANNEL |
  P.SEND_MESSAGES |
  P.EMBED_LINKS |
  P.ATTACH_FILES |
  P.READ_MESSAGE_HISTORY |
  P.CONNECT |
  P.SPEAK |
  P.CHANGE_NICKNAME;

export const MODERATOR_PERMISSIONS = P.KICK_MEMBERS | P.BAN_MEMBERS | P.MANAGE_MESSAGES | P.VIEW_AUDIT_LOG;
