import type { RateLimitBucketName } from './rate-limits.ts';

/**
 * ACL strings (Fluxer's vocabulary, docs/decisions.md#fluxer-acl-vocabulary). Only the literal `*` is special:
 * there is no prefix wildcard such as `ban:*`.
 */
export const ACL = {
  wildcard: '*',
  authenticate: 'admin:authenticate',
  apiKeyManage: 'admin_api_key:manage',
  archiveTriggerUser: 'archive:trigger:user',
  archiveTriggerGuild: 'archive:trigger:guild',
  archiveViewAll: 'archive:view_all',
  assetPurge: 'asset:purge',
  auditLogView: 'audit_log:view',
  banEmailAdd: 'ban:email:add',
  banEmailCheck: 'ban:email:check',
  banEmailRemove: 'ban:email:remove',
  banIpAdd: 'ban:ip:add',
  banIpCheck: 'ban:ip:check',
  banIpRemove: 'ban:ip:remove',
  banPhoneAdd: 'ban:phone:add',
  banPhoneCheck: 'ban:phone:check',
  banPhoneRemove: 'ban:phone:remove',
  bulkAddGuildMembers: 'bulk:add:guild_members',
  // Ours (docs/decisions.md#failed-jobs): failed jobs, visible and retried without opening Redis.
  jobsRead: 'jobs:read',
  jobsWrite: 'jobs:write',
  // Ours (docs/decisions.md#admin-webhook-routes): an operator sees and removes any webhook.
  webhookView: 'webhook:view',
  webhookDelete: 'webhook:delete',
} as const;

export type AclName = (typeof ACL)[keyof typeof ACL];

export interface AdminRoute {
  method: 'GET' | 'POST' | 'DELETE';
  /** Express path under `/v1`. */
  path: string;
  /**
   * The OpenAPI operationId (docs/decisions.md#openapi-names): snake_case, verb first, unique.
   * Generated clients name their methods after it: renaming one breaks them.
   */
  operationId: string;
  /** The caller needs one of these (most routes name one). */
  anyOf: readonly AclName[];
  /** Rate-limit bucket, or null for the one route Fluxer leaves unlimited. */
  bucket: RateLimitBucketName | null;
}

const ARCHIVE_VIEW = [ACL.archiveViewAll, ACL.archiveTriggerUser, ACL.archiveTriggerGuild] as const;

function route(
  method: AdminRoute['method'],
  path: string,
  operationId: string,
  anyOf: AclName | readonly AclName[],
  bucket: RateLimitBucketName | null,
): AdminRoute {
  return { method, path, operationId, anyOf: typeof anyOf === 'string' ? [anyOf] : anyOf, bucket };
}

type BanAction = 'add' | 'check' | 'list' | 'remove';

function banRoutes(
  kind: 'email' | 'ip' | 'phone',
  acls: { add: AclName; check: AclName; remove: AclName },
  operationIds: Record<BanAction, string>,
): AdminRoute[] {
  const prefix = `/v1/admin/bans/${kind}`;
  return [
    route('POST', `${prefix}/add`, operationIds.add, acls.add, 'admin:ban:operation'),
    route('POST', `${prefix}/check`, operationIds.check, acls.check, 'admin:ban:operation'),
    // Listing needs the check ACL, as in Fluxer: there is no separate list ACL.
    route('POST', `${prefix}/list`, operationIds.list, acls.check, 'admin:ban:operation'),
    route('POST', `${prefix}/remove`, operationIds.remove, acls.remove, 'admin:ban:operation'),
  ];
}

/**
 * Every admin route of the interface with the ACL it requires and its rate-limit bucket
 * (docs/decisions.md#fluxer-admin-rate-limit-buckets, #fluxer-acl-vocabulary). The auth middleware,
 * the router and the 401/403 walker test all read this one table, so a route cannot exist without
 * its ACL.
 */
export const ADMIN_ROUTES: readonly AdminRoute[] = [
  route('POST', '/v1/admin/api-keys', 'create_admin_api_key', ACL.apiKeyManage, 'admin:code:generation'),
  route('GET', '/v1/admin/api-keys', 'list_admin_api_keys', ACL.apiKeyManage, null),
  route('DELETE', '/v1/admin/api-keys/:keyId', 'delete_admin_api_key', ACL.apiKeyManage, 'admin:user:modify'),
  route('POST', '/v1/admin/archives/user', 'trigger_user_archive', ACL.archiveTriggerUser, 'admin:lookup'),
  route('POST', '/v1/admin/archives/guild', 'trigger_guild_archive', ACL.archiveTriggerGuild, 'admin:lookup'),
  route('POST', '/v1/admin/archives/list', 'list_archives', ARCHIVE_VIEW, 'admin:lookup'),
  route('GET', '/v1/admin/archives/:subjectType/:subjectId/:archiveId', 'get_archive', ARCHIVE_VIEW, 'admin:lookup'),
  route(
    'GET',
    '/v1/admin/archives/:subjectType/:subjectId/:archiveId/download',
    'get_archive_download_url',
    ARCHIVE_VIEW,
    'admin:lookup',
  ),
  route('POST', '/v1/admin/assets/purge', 'purge_assets', ACL.assetPurge, 'admin:guild:modify'),
  // The outcome of a purge that outlived the request (202): docs/decisions.md#operation-rows-and-status-routes.
  route('GET', '/v1/admin/assets/purges/:purgeId', 'get_asset_purge', ACL.assetPurge, 'admin:lookup'),
  route('POST', '/v1/admin/audit-logs', 'list_audit_logs', ACL.auditLogView, 'admin:audit_log'),
  route('POST', '/v1/admin/audit-logs/search', 'search_audit_logs', ACL.auditLogView, 'admin:audit_log'),
  ...banRoutes(
    'email',
    { add: ACL.banEmailAdd, check: ACL.banEmailCheck, remove: ACL.banEmailRemove },
    { add: 'add_email_ban', check: 'check_email_ban', list: 'list_email_bans', remove: 'remove_email_ban' },
  ),
  ...banRoutes(
    'ip',
    { add: ACL.banIpAdd, check: ACL.banIpCheck, remove: ACL.banIpRemove },
    { add: 'add_ip_ban', check: 'check_ip_ban', list: 'list_ip_bans', remove: 'remove_ip_ban' },
  ),
  ...banRoutes(
    'phone',
    { add: ACL.banPhoneAdd, check: ACL.banPhoneCheck, remove: ACL.banPhoneRemove },
    { add: 'add_phone_ban', check: 'check_phone_ban', list: 'list_phone_bans', remove: 'remove_phone_ban' },
  ),
  route(
    'POST',
    '/v1/admin/bulk/add-guild-members',
    'bulk_add_guild_members',
    ACL.bulkAddGuildMembers,
    'admin:bulk:operation',
  ),
  // The outcome of a bulk operation that outlived the request (202):
  // docs/decisions.md#operation-rows-and-status-routes.
  route('GET', '/v1/admin/bulk/operations/:operationId', 'get_bulk_operation', ACL.bulkAddGuildMembers, 'admin:lookup'),
  // Failed jobs of every queue, and their retry (docs/decisions.md#failed-jobs).
  route('GET', '/v1/admin/jobs/failed', 'list_failed_jobs', ACL.jobsRead, 'admin:lookup'),
  route('POST', '/v1/admin/jobs/retry', 'retry_failed_jobs', ACL.jobsWrite, 'admin:user:modify'),
  // Any guild's webhooks, for operators (docs/decisions.md#admin-webhook-routes).
  route('POST', '/v1/admin/webhooks/list', 'list_admin_webhooks', ACL.webhookView, 'admin:lookup'),
  route('GET', '/v1/admin/webhooks/:webhookId', 'get_admin_webhook', ACL.webhookView, 'admin:lookup'),
  route('DELETE', '/v1/admin/webhooks/:webhookId', 'delete_admin_webhook', ACL.webhookDelete, 'admin:guild:modify'),
  // The queue dashboard: a key holding jobs:read is exchanged for a short-lived session cookie.
  route('POST', '/v1/admin/dashboard/session', 'create_dashboard_session', ACL.jobsRead, 'admin:lookup'),
];

/** True when an ACL set grants `required` (holding `*` grants everything). */
export function aclsGrant(held: readonly string[], required: string): boolean {
  return held.includes(ACL.wildcard) || held.includes(required);
}
