/**
 * Every rate-limit bucket, as data: the gateway's middleware and the discovery document both
 * read this table. Numbers are Fluxer's (docs/decisions.md#fluxer-admin-rate-limit-buckets,
 * #fluxer-webhook-rate-limits).
 *
 * A bucket is shared by every route that names it, per identity (`user:<id>`, `admin:<id>`,
 * or the client IP). `:param` in a name is replaced by that route parameter's value, so
 * `webhook:execute::webhook_id` becomes `webhook:execute:123`: one bucket per webhook.
 * Renaming a bucket resets everyone's budget once (its Redis key changes); harmless.
 */

export interface RateLimitBucket {
  /** Bucket name, possibly with `:param` placeholders. */
  readonly name: string;
  /** Requests admitted per window; also the burst a fresh bucket admits at once. */
  readonly limit: number;
  readonly windowMs: number;
  /** False for routes Fluxer exempts from the per-identity global limit (webhook execution). */
  readonly countsTowardGlobal: boolean;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;

function bucket(name: string, limit: number, windowMs: number, countsTowardGlobal = true): RateLimitBucket {
  return { name, limit, windowMs, countsTowardGlobal };
}

export const RATE_LIMIT_BUCKETS = {
  'instance:info': bucket('instance:info', 60, MINUTE),
  /**
   * Failed attempts per client IP that prove nothing about the caller (an admin key that
   * matches nothing, an unknown webhook, a wrong webhook token): spent only by such failures,
   * checked before the lookup or the body read they would cost. Ours; Fluxer has none. The
   * gateway's AUTH_FAILURE_BUDGET and AUTH_FAILURE_WINDOW_MS replace these numbers, which are
   * their defaults (docs/decisions.md, "The failure budget counts guesses").
   */
  'auth:failures': bucket('auth:failures', 1000, MINUTE, false),
  /**
   * Refused executions (a body that does not validate, a bad signature …) of a caller holding
   * the webhook's token, per client IP and webhook: a broken integration slows itself, never
   * the other webhooks a shared sender (GitHub, Sentry, Slack) delivers from its address.
   */
  'webhook:failures::webhook_id': bucket('webhook:failures::webhook_id', 60, MINUTE, false),
  'admin:code:generation': bucket('admin:code:generation', 30, MINUTE),
  'admin:user:modify': bucket('admin:user:modify', 100, MINUTE),
  'admin:lookup': bucket('admin:lookup', 200, MINUTE),
  'admin:guild:modify': bucket('admin:guild:modify', 100, MINUTE),
  'admin:audit_log': bucket('admin:audit_log', 100, MINUTE),
  'admin:ban:operation': bucket('admin:ban:operation', 60, MINUTE),
  'admin:bulk:operation': bucket('admin:bulk:operation', 20, MINUTE),
  /**
   * Every request of the queue dashboard, per admin (the board polls every few seconds per
   * tab). Ours. Outside the global limit: an open board must not spend the admin's API budget.
   */
  'admin:dashboard': bucket('admin:dashboard', 300, MINUTE, false),
  'webhook:list::guild_id': bucket('webhook:list::guild_id', 40, 10 * SECOND),
  'webhook:list::channel_id': bucket('webhook:list::channel_id', 40, 10 * SECOND),
  'webhook:create::channel_id': bucket('webhook:create::channel_id', 10, MINUTE),
  'webhook:read::webhook_id': bucket('webhook:read::webhook_id', 100, 10 * SECOND),
  'webhook:update::webhook_id': bucket('webhook:update::webhook_id', 20, 10 * SECOND),
  'webhook:delete::webhook_id': bucket('webhook:delete::webhook_id', 20, 10 * SECOND),
  /** Reading a channel's messages back (Discord allows about 5 a second per channel). */
  'channel:messages:read::channel_id': bucket('channel:messages:read::channel_id', 50, 10 * SECOND),
  /** Plain and chat-app execution share it, as Fluxer's plain and Slack routes do. */
  'webhook:execute::webhook_id': bucket('webhook:execute::webhook_id', 60, MINUTE, false),
  /** Code-host and error-tracker execution share it (Fluxer's GitHub and Sentry routes). */
  'webhook:codehost::webhook_id': bucket('webhook:codehost::webhook_id', 200, MINUTE, false),
} as const satisfies Record<string, RateLimitBucket>;

export type RateLimitBucketName = keyof typeof RATE_LIMIT_BUCKETS;

/**
 * Per identity, across every bucket that counts toward it. Deliberately not in
 * RATE_LIMIT_BUCKETS, so no route can name it as its own bucket.
 */
export const GLOBAL_RATE_LIMIT: RateLimitBucket = bucket('global', 50, SECOND);

export function rateLimitBucket(name: RateLimitBucketName): RateLimitBucket {
  return RATE_LIMIT_BUCKETS[name];
}

export function isRateLimitBucketName(name: string): name is RateLimitBucketName {
  return Object.hasOwn(RATE_LIMIT_BUCKETS, name);
}
