/**
 * Every size, count and page limit the service enforces, as data. Routes validate against these
 * values and the discovery document publishes them, so the two can never disagree.
 */

const MiB = 1024 * 1024;
const AVATAR_MAX_BYTES = 10 * MiB;

/** An integer query/body parameter with bounds and the value used when it is absent. */
export interface RangeWithDefault {
  readonly min: number;
  readonly max: number;
  readonly default: number;
}

export const LIMITS = {
  /** Request body sizes in bytes, per route family (docs/decisions.md#body-size-limits). */
  body: {
    adminBytes: 1 * MiB,
    managementBytes: 1 * MiB,
    /**
     * Webhook create/update, which may carry an avatar: a 10 MiB image is 13.3 MiB of base64,
     * plus the usual 1 MiB (docs/decisions.md#body-size-limits gives other management routes 1 MiB).
     */
    avatarBodyBytes: Math.ceil(AVATAR_MAX_BYTES / 3) * 4 + 1 * MiB,
    /** The largest payload a code host sends. */
    inboundWebhookBytes: 25 * MiB,
  },
  webhooks: {
    perChannel: 15,
    perGuild: 1000,
    nameMinLength: 1,
    nameMaxLength: 80,
    /** Decoded avatar image size. */
    avatarMaxBytes: AVATAR_MAX_BYTES,
    tokenMaxLength: 256,
    /** The write-only signing secret (docs/decisions.md#webhook-secrets); GitHub and Sentry secrets are far shorter. */
    secretMaxLength: 256,
  },
  messages: {
    maxContentLength: 2000,
    maxEmbeds: 10,
    /** Title + description + footer text + author name + field names and values, over all embeds. */
    maxEmbedTotalChars: 6000,
    embedTitleMaxLength: 256,
    embedDescriptionMaxLength: 4096,
    embedAuthorNameMaxLength: 256,
    embedFooterTextMaxLength: 2048,
    embedMaxFields: 25,
    embedFieldNameMaxLength: 256,
    embedFieldValueMaxLength: 1024,
    /** Remote avatar_url/icon_url length. */
    urlMaxLength: 2048,
    /** Page size of GET /channels/{channel_id}/messages. */
    list: { min: 1, max: 100, default: 50 } satisfies RangeWithDefault,
  },
  bans: {
    list: { min: 1, max: 500, default: 200 } satisfies RangeWithDefault,
    /** Entries in one `emails`/`ips`/`phones` array. */
    maxValuesPerRequest: 1000,
    reasonMaxLength: 512,
    /** The longest `contains` filter of a ban list (an email is up to 254 characters). */
    containsMaxLength: 320,
  },
  auditLogs: {
    list: { min: 1, max: 200, default: 50 } satisfies RangeWithDefault,
    reasonMaxLength: 512,
    /** The longest target id (an email is up to 254 characters); the column allows this. */
    targetIdMaxLength: 320,
    /**
     * A list or search counts its matches exactly up to this many; beyond it `total` is the
     * planner's estimate and `total_is_exact` false (docs/decisions.md#audit-search-at-scale).
     */
    exactTotalMax: 1000,
  },
  bulk: {
    /** user_ids in one add-guild-members request (the default; a deployment may lower it). */
    maxUserIds: 1000,
  },
  assetPurge: {
    /** Emoji or sticker ids in one purge request. */
    maxIds: 100,
  },
  apiKeys: {
    nameMinLength: 1,
    nameMaxLength: 100,
    expiresInDays: { min: 1, max: 365 },
    maxAcls: 100,
  },
} as const;

export type Limits = typeof LIMITS;
