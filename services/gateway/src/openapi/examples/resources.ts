/**
 * Example bodies of the resources the document names (docs/decisions.md#openapi-names). Each is
 * one value of its schema: the openapi tests parse every example with the zod schema the
 * operation is described from, and validate it against the served document.
 */

/** Snowflake ids used across the examples, so one example's references resolve in another. */
export const IDS = {
  admin: '1297040301409234944',
  apiKey: '1297040301409234945',
  archive: '1297040301409234946',
  auditLog: '1297040301409234947',
  channel: '1297040301409234948',
  guild: '1297040301409234949',
  message: '1297040301409234950',
  operation: '1297040301409234951',
  user: '1297040301409234952',
  webhook: '1297040301409234953',
  movedToChannel: '1297040301409234954',
} as const;

export const WEBHOOK_TOKEN = 'kVd3lS0wbcWQx1Zr6s2pPjN5f8mEoHuG';

const AT = '2026-11-02T09:30:00.000Z';
const LATER = '2026-11-09T09:30:00.000Z';

export const USER_PARTIAL = {
  id: IDS.user,
  username: 'ada',
  discriminator: '0001',
  global_name: 'Ada',
  avatar: null,
  avatar_color: null,
  flags: 0,
};

/** What every view of the example webhook shows. */
const WEBHOOK_FIELDS = {
  id: IDS.webhook,
  type: 1,
  guild_id: IDS.guild,
  channel_id: IDS.channel,
  name: 'Deploys',
  avatar: null,
};

export const WEBHOOK_BY_TOKEN = { ...WEBHOOK_FIELDS, token: WEBHOOK_TOKEN };

export const WEBHOOK = { ...WEBHOOK_BY_TOKEN, user: USER_PARTIAL };

/** What an operator sees of a webhook: no token, no secret. */
export const ADMIN_WEBHOOK = {
  ...WEBHOOK_FIELDS,
  creator_id: IDS.user,
  signed: false,
  created_at: AT,
};

export const MESSAGE = {
  id: IDS.message,
  type: 0,
  content: 'Deployed `main` to production.',
  channel_id: IDS.channel,
  guild_id: IDS.guild,
  author: { id: IDS.webhook, username: 'Deploys', discriminator: '0000', avatar: null, bot: true as const, flags: 0 },
  attachments: [],
  embeds: [],
  mentions: [],
  mention_roles: [],
  mention_everyone: false,
  pinned: false,
  tts: false,
  timestamp: AT,
  edited_timestamp: null,
  flags: 0,
  webhook_id: IDS.webhook,
};

export const API_KEY = {
  key_id: IDS.apiKey,
  name: 'ops',
  created_at: AT,
  last_used_at: LATER,
  expires_at: null,
  created_by_user_id: IDS.admin,
  acls: ['admin_api_key:manage', 'audit_log:view'],
};

export const CREATED_API_KEY = {
  key_id: IDS.apiKey,
  key: 'sbk_live_4f9a1c2e7b8d4e0fa3b6c9d2e5f8a1b4',
  name: 'ops',
  created_at: AT,
  expires_at: LATER,
  acls: ['audit_log:view'],
};

export const ARCHIVE = {
  archive_id: IDS.archive,
  subject_type: 'user',
  subject_id: IDS.user,
  requested_by: IDS.admin,
  status: 'completed',
  requested_at: AT,
  started_at: AT,
  completed_at: AT,
  failed_at: null,
  file_size: '48213',
  progress_percent: 100,
  progress_step: 'Completed',
  error_message: null,
  download_url_expires_at: null,
  expires_at: LATER,
};

export const QUEUED_ARCHIVE = {
  ...ARCHIVE,
  status: 'queued',
  started_at: null,
  completed_at: null,
  file_size: null,
  progress_percent: 0,
  progress_step: 'Queued',
};

export const AUDIT_LOG_ENTRY = {
  log_id: IDS.auditLog,
  admin_user_id: IDS.admin,
  api_key_id: IDS.apiKey,
  target_type: 'ip',
  target_id: '192.0.2.7',
  action: 'ban_ip',
  audit_log_reason: 'Credential stuffing',
  metadata: { ip: '192.0.2.7' },
  created_at: AT,
};

const BAN = { reason: 'Credential stuffing', expires_at: LATER, created_by: IDS.admin, created_at: AT };
export const EMAIL_BAN = { email: 'spam@example.com', ...BAN };
export const PHONE_BAN = { phone: '+15555550123', ...BAN };
export const IP_BAN = { ip: '192.0.2.7', reverse_dns: 'host7.example.net', ...BAN };

export const BAN_CHECK_HIT = {
  banned: true,
  reason: 'Credential stuffing',
  expires_at: LATER,
  created_at: AT,
  matched: '192.0.2.0/24',
};

export const ASSET_PURGE_RESULT = {
  processed: [{ id: '1297040301409234960', asset_type: 'emoji', found_in_db: true, guild_id: IDS.guild }],
  errors: [],
  deleted_objects: 2,
};

export const BULK_RESULT = {
  successful: [IDS.user],
  failed: [{ id: '1297040301409234961', error: 'UNKNOWN_USER' }],
};

export const FAILED_JOB = {
  queue: 'webhook-deliveries',
  id: 'delivery:1297040301409234962',
  name: 'webhook-delivery',
  attempts: 5,
  last_error: 'connect ETIMEDOUT',
  failed_at: AT,
};

export const TIMES = { at: AT, later: LATER };
