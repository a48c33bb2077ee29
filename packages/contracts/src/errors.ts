import { z } from 'zod';
import { apiSchema } from './api-schemas.ts';
import { LIMITS } from './limits.ts';

/**
 * Every error the API answers with: stable code, HTTP status and English message. Codes and
 * texts follow Fluxer (docs/decisions.md#fluxer-error-codes-and-texts) so its clients work unchanged;
 * clients match on `code`, never on `message`.
 */
export const ERRORS = {
  // 400
  INVALID_FORM_BODY: { status: 400, message: 'Invalid form body.' },
  CANNOT_SEND_EMPTY_MESSAGE: { status: 400, message: 'Cannot send empty message.' },
  HARVEST_NOT_READY: {
    status: 400,
    message: 'Your data export is still being prepared. Please check back in a few moments.',
  },
  HARVEST_FAILED: { status: 400, message: 'Your data export request failed. Please try again.' },
  HARVEST_EXPIRED: { status: 400, message: 'Your data export request has expired. Please request a new export.' },
  MAX_WEBHOOKS: {
    status: 400,
    message: `Maximum number of webhooks per channel reached (${LIMITS.webhooks.perChannel}).`,
  },
  MAX_WEBHOOKS_PER_GUILD: {
    status: 400,
    message: `Maximum number of webhooks per guild reached (${LIMITS.webhooks.perGuild}).`,
  },
  // Per-user outcomes of bulk add guild members (docs/decisions.md#bulk-add-outcomes).
  MAX_GUILDS: { status: 400, message: 'Maximum number of guilds reached.' },
  MAX_GUILD_MEMBERS: { status: 400, message: 'Maximum number of guild members reached.' },
  // A webhook on a channel that shows no messages (voice, category): Discord's 50024 text.
  INVALID_CHANNEL_TYPE: { status: 400, message: 'Cannot execute action on this channel type.' },
  // 401
  UNAUTHORIZED: { status: 401, message: 'Unauthorized.' },
  INVALID_WEBHOOK_SIGNATURE: { status: 401, message: 'Invalid webhook signature.' },
  // 403
  MISSING_PERMISSIONS: { status: 403, message: "You don't have the permissions required to perform this action." },
  MISSING_ACL: { status: 403, message: 'Missing ACL.' },
  MISSING_ACCESS: { status: 403, message: 'Missing access.' },
  // Fluxer's text reuses a guild message; kept verbatim for compatibility.
  IP_BANNED: { status: 403, message: "This user's IP is banned from this guild." },
  FORBIDDEN: { status: 403, message: 'Forbidden.' },
  // Plain webhook execute refuses requests made by our own web app (Fluxer's origin block,
  // docs/decisions.md#fluxer-webhook-routes-and-check-order).
  INVALID_API_ORIGIN: { status: 403, message: 'Webhooks cannot be executed from this origin.' },
  // 404
  NOT_FOUND: { status: 404, message: 'Not found.' },
  UNKNOWN_USER: { status: 404, message: "User wasn't found." },
  UNKNOWN_GUILD: { status: 404, message: "Guild wasn't found." },
  UNKNOWN_CHANNEL: { status: 404, message: 'Unknown Channel' },
  UNKNOWN_MESSAGE: { status: 404, message: 'Unknown Message' },
  UNKNOWN_WEBHOOK: { status: 404, message: 'Unknown Webhook' },
  UNKNOWN_HARVEST: { status: 404, message: 'Unknown harvest.' },
  UNKNOWN_ASSET_PURGE: { status: 404, message: "Asset purge wasn't found." },
  UNKNOWN_BULK_OPERATION: { status: 404, message: "Bulk operation wasn't found." },
  ADMIN_API_KEY_NOT_FOUND: { status: 404, message: "Admin API key wasn't found." },
  // 405, 408, 413, 415
  METHOD_NOT_ALLOWED: { status: 405, message: 'Method not allowed.' },
  // A body that stopped arriving, or arrived too slowly (the webhook body-read timeouts).
  REQUEST_TIMEOUT: { status: 408, message: 'The request body was not received in time.' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'Request body is too large.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'Unsupported content type.' },
  // 431: the request line and headers together are over what the HTTP server reads (16 KiB).
  HEADERS_TOO_LARGE: { status: 431, message: 'Request headers are too large.' },
  // 429
  RATE_LIMITED: { status: 429, message: "You're being rate limited." },
  // 5xx
  INTERNAL_SERVER_ERROR: { status: 500, message: 'Internal server error.' },
  SERVICE_UNAVAILABLE: { status: 503, message: 'Service unavailable.' },
  // `?wait=true` on a webhook whose delivery did not finish within the bound: the outcome is
  // unknown (it may still be stored), as for a timed-out upstream; the body names the message id.
  MESSAGE_DELIVERY_TIMEOUT: {
    status: 504,
    message: 'The message was accepted but not stored in time; it may still appear.',
  },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERRORS;

export const errorCodeSchema = z.enum(Object.keys(ERRORS) as [ErrorCode, ...ErrorCode[]]);

/** One field problem of a 400: `path` joins the field path with dots, or is `"root"`. */
export const validationErrorItemSchema = z.object({
  path: z.string(),
  message: z.string(),
  code: z.string().optional(),
});

export type ValidationErrorItem = z.infer<typeof validationErrorItemSchema>;

/** Every error body. Some errors add fields (429: `retry_after`, `global`), hence `loose`. */
export const errorBodySchema = apiSchema(
  'Error',
  z.looseObject({
    code: z.string().regex(/^[A-Z][A-Z0-9_]*$/),
    message: z.string().min(1),
    errors: z.array(validationErrorItemSchema).optional(),
  }),
);

export type ErrorBody = z.infer<typeof errorBodySchema>;
