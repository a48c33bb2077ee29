import { env } from '@switchboard/config';

/** Variables of the operator console, spread into the gateway's schema (config.ts). */
export const consoleConfigShape = {
  /** How long a console sign-in lives, in seconds (fixed, never longer than its key). */
  CONSOLE_SESSION_TTL_SECONDS: env.int(60, 24 * 60 * 60).default(30 * 60),
  /** The bound on each admin API call the console makes for a page or a form, in milliseconds. */
  CONSOLE_API_TIMEOUT_MS: env.int(100, 120_000).default(15_000),
};
