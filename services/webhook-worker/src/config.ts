import { env, z } from '@switchboard/config';
import { DEFAULT_EVENTS_STREAM_KEY } from '@switchboard/contracts';
import { workerConfigSchema } from '@switchboard/runtime';

/** The webhook worker's variables: a worker's (S3 included, for claim-checked bodies), and these. */
export const webhookWorkerConfigSchema = workerConfigSchema
  .extend({
    /**
     * Deliveries run at once. A delivery mostly waits (insert and commit, Redis), and deliveries
     * finishing together share one insert and one events script, so many at once is what makes
     * the worker fast: with fewer, the worker sat idle while each job waited on its batch's round
     * trips. 128 stored more messages a second than 64 or 256, in larger batches for less CPU per
     * delivery, where the raw no-op worker beside it drained no faster
     * (packages/bench/README.md#webhook-worker). Memory stays small: inline bodies are at most
     * the gateway's WEBHOOK_INLINE_BODY_MAX_BYTES (64 KiB by default), and claim-checked (large)
     * bodies stay at 4 at a time whatever this is (deliver.ts).
     */
    WORKER_CONCURRENCY: env.int(1, 256).default(128),
    /** The Redis stream MESSAGE_CREATE goes to: `events`, unless deployments share a Redis. */
    EVENTS_STREAM_KEY: z.string().min(1).max(256).default(DEFAULT_EVENTS_STREAM_KEY),
    /** Entries the `events` stream keeps, approximately (`XADD … MAXLEN ~`). */
    EVENTS_STREAM_MAX_LENGTH: env.int(100, 100_000_000).default(100_000),
    /**
     * How long "MESSAGE_CREATE of message <id> was appended" is remembered, so a retried or
     * recovered delivery never appends it twice. It must outlive the job's retries: backoffs
     * of 1+2+4+8 s and up to five stall recoveries of ≤ 15 s each are under two minutes, and
     * ten leave room for a backlog. Every marker costs Redis memory for this long, under
     * `noeviction`: a day's markers at a busy rate would hold gigabytes
     * (packages/bench/README.md#webhook-worker).
     */
    EVENTS_PUBLISHED_TTL_SECONDS: env.int(60, 30 * 24 * 60 * 60).default(10 * 60),
    /**
     * Claim-checked bodies older than this whose delivery job is gone or completed are removed
     * by the body sweep, every WEBHOOK_BODY_SWEEP_INTERVAL_MS. Far longer than an enqueue can
     * take (the gateway's Redis bound is seconds), so a body is never taken from under the add
     * that will carry it.
     */
    WEBHOOK_BODY_ORPHAN_AGE_MS: env.int(1000, 30 * 24 * 60 * 60 * 1000).default(60 * 60 * 1000),
    WEBHOOK_BODY_SWEEP_INTERVAL_MS: env.int(100, 24 * 60 * 60 * 1000).default(10 * 60 * 1000),
    /**
     * Test-only: every delivery waits this long at WEBHOOK_TEST_DELAY_AT, so a test can kill
     * the worker mid-delivery. Refused outside NODE_ENV=test.
     */
    WEBHOOK_TEST_DELAY_MS: env.int(0, 600_000).default(0),
    /** `before-store`: before the message insert; `after-store`: between the insert and the event. */
    WEBHOOK_TEST_DELAY_AT: z.enum(['before-store', 'after-store']).default('after-store'),
  })
  .refine((config) => config.WEBHOOK_TEST_DELAY_MS === 0 || config.NODE_ENV === 'test', {
    path: ['WEBHOOK_TEST_DELAY_MS'],
    message: 'is a test hook: only allowed with NODE_ENV=test',
  });

export type WebhookWorkerConfig = z.infer<typeof webhookWorkerConfigSchema>;
