import { env } from '@switchboard/config';

const KiB = 1024;

/** Webhook execution's variables, spread into the gateway's schema (config.ts). */
export const executeConfigShape = {
  /** `?wait=true`: how long plain execute waits for the worker to store the message (then 504). */
  WEBHOOK_WAIT_TIMEOUT_MS: env.int(100, 60_000).default(10_000),
  /**
   * Bodies up to this size ride in the job; larger ones go to S3 and the job carries the key
   * (claim check), so Redis never holds a 25 MiB payload.
   */
  WEBHOOK_INLINE_BODY_MAX_BYTES: env.int(0, 25 * 1024 * KiB).default(64 * KiB),
};
