import { env } from '@switchboard/config';

/** Variables of the queue dashboard, spread into the gateway's schema (config.ts). */
export const dashboardConfigShape = {
  /**
   * How long a dashboard session lives after sign-in, in seconds (never longer than its key).
   * Fixed, not sliding: the board polls every few seconds, which would keep a forgotten tab
   * signed in for ever.
   */
  DASHBOARD_SESSION_TTL_SECONDS: env.int(60, 24 * 60 * 60).default(15 * 60),
};
