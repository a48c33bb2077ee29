import { ACL, type AclName } from '@switchboard/contracts';
import { grantedAcl, type AdminPrincipal } from '../admin-auth/index.ts';

type GrantableAcl = Exclude<AclName, typeof ACL.wildcard>;

/**
 * Every ACL a console-made key may carry, with its group and what it allows. A Record over the
 * ACL names: a new ACL does not compile until it has a place here. `*` is never offered: a key
 * made in the console names what it may do.
 */
const ACL_LABELS: Record<GrantableAcl, { group: string; label: string }> = {
  [ACL.authenticate]: { group: 'Admin plane', label: 'Use the admin API at all' },
  [ACL.apiKeyManage]: { group: 'Admin plane', label: 'Create, list and revoke own API keys' },
  [ACL.auditLogView]: { group: 'Audit log', label: 'Read and search the audit log' },
  [ACL.archiveTriggerUser]: { group: 'Archives', label: 'Export a user' },
  [ACL.archiveTriggerGuild]: { group: 'Archives', label: 'Export a guild' },
  [ACL.archiveViewAll]: { group: 'Archives', label: 'See and download every archive' },
  [ACL.assetPurge]: { group: 'Assets', label: 'Purge assets' },
  [ACL.bulkAddGuildMembers]: { group: 'Bulk operations', label: 'Add members to guilds in bulk' },
  [ACL.banEmailCheck]: { group: 'Email bans', label: 'Check and list' },
  [ACL.banEmailAdd]: { group: 'Email bans', label: 'Ban' },
  [ACL.banEmailRemove]: { group: 'Email bans', label: 'Unban' },
  [ACL.banIpCheck]: { group: 'IP bans', label: 'Check and list' },
  [ACL.banIpAdd]: { group: 'IP bans', label: 'Ban' },
  [ACL.banIpRemove]: { group: 'IP bans', label: 'Unban' },
  [ACL.banPhoneCheck]: { group: 'Phone bans', label: 'Check and list' },
  [ACL.banPhoneAdd]: { group: 'Phone bans', label: 'Ban' },
  [ACL.banPhoneRemove]: { group: 'Phone bans', label: 'Unban' },
  [ACL.jobsRead]: { group: 'Jobs', label: 'See queues and failed jobs (queue dashboard)' },
  [ACL.jobsWrite]: { group: 'Jobs', label: 'Retry and change jobs' },
  [ACL.webhookView]: { group: 'Webhooks', label: 'See any webhook' },
  [ACL.webhookDelete]: { group: 'Webhooks', label: 'Delete any webhook' },
};

export interface AclGroup {
  name: string;
  acls: Array<{ acl: string; label: string }>;
}

/**
 * The ACLs the operator may grant (held by both the owner and the signed-in key, as the create
 * route requires), grouped in table order; empty groups are left out.
 */
export function grantableAclGroups(principal: AdminPrincipal): AclGroup[] {
  const groups = new Map<string, AclGroup>();
  for (const [acl, { group, label }] of Object.entries(ACL_LABELS)) {
    if (grantedAcl(principal, [acl]) === null) continue;
    const entry = groups.get(group) ?? { name: group, acls: [] };
    entry.acls.push({ acl, label });
    groups.set(group, entry);
  }
  return [...groups.values()];
}
