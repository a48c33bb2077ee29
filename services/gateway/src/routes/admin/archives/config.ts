import { env } from '@switchboard/config';

/** The archive routes' variables, spread into the gateway's schema (config.ts). */
export const archiveConfigShape = {
  /**
   * Days an archive is kept from its request
   * (docs/decisions.md#archive-triggers-and-download-links): its `expires_at`, set at trigger time.
   */
  ARCHIVE_RETENTION_DAYS: env.int(1, 3650).default(365),
  /**
   * Lifetime of a download link in seconds (docs/decisions.md#archive-triggers-and-download-links:
   * 15 minutes by default); at most 7 days, the longest S3 signs (SigV4).
   */
  ARCHIVE_LINK_TTL_SECONDS: env.int(1, 604_800).default(900),
};
