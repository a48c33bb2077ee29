export { findGuildAccess, type AccessSubject, type GuildAccessRow } from './access-query.ts';
export { checkGuildPermission, guildAccess, requireGuildPermission, type GuildAccess } from './guild-permission.ts';
export { computePermissions, NO_OVERWRITES, type MemberOverwrites, type Overwrite } from './compute.ts';
