import { ApiError } from '@switchboard/http';

/**
 * A webhook with a secret accepts only signed deliveries (docs/decisions.md: "A webhook's secret
 * makes it signed-only"): its token alone must not post or change what a signed sender would
 * have posted. Plain execute, the chat-app routes and the token's message edits and deletes
 * carry no signature, so they are 401 for it.
 */
export function refuseUnsignedWhenSecret(webhook: { secret: string | null }): void {
  if (webhook.secret === null) return;
  throw new ApiError('INVALID_WEBHOOK_SIGNATURE', {
    message:
      'This webhook has a secret: it accepts only signed deliveries (/github, /codehost, /sentry, /errortracker).',
  });
}
