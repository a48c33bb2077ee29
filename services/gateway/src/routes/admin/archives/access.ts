import { ACL, type ArchiveSubjectType } from '@switchboard/contracts';
import { grantedAcl, missingAcl, type AdminPrincipal } from '../../../admin-auth/index.ts';

/** The ACL that lets an admin see archives of one type without `archive:view_all`. */
const TYPE_ACL = {
  user: ACL.archiveTriggerUser,
  guild: ACL.archiveTriggerGuild,
} as const satisfies Record<ArchiveSubjectType, string>;

/**
 * Which archives the caller may see (docs/decisions.md#fluxer-archive-routes), checked after the router's any-of gate:
 * `all` needs `archive:view_all` (403 naming it); one type needs `archive:view_all` or that
 * type's trigger ACL (403 naming the trigger ACL). Owner and key must both grant it.
 */
export function requireArchiveView(principal: AdminPrincipal, subjectType: ArchiveSubjectType | 'all'): void {
  if (subjectType === 'all') {
    if (grantedAcl(principal, [ACL.archiveViewAll]) === null) throw missingAcl(ACL.archiveViewAll);
    return;
  }
  const typeAcl = TYPE_ACL[subjectType];
  if (grantedAcl(principal, [ACL.archiveViewAll, typeAcl]) === null) throw missingAcl(typeAcl);
}
