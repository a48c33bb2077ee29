import { env } from '@switchboard/config';
import { LIMITS } from '@switchboard/contracts';

/** Variables of the admin routes that run jobs, spread into the gateway's schema (config.ts). */
export const jobsConfigShape = {
  /**
   * How long a purge or bulk add is waited for before the answer is 202 with its id
   * (docs/decisions.md#operation-rows-and-status-routes).
   */
  ADMIN_JOB_WAIT_MS: env.int(0, 60_000).default(10_000),
  /** user_ids one bulk add may carry; published in discovery (a deployment may lower it). */
  BULK_MAX_USER_IDS: env.int(1, LIMITS.bulk.maxUserIds).default(LIMITS.bulk.maxUserIds),
};
