import { z } from 'zod';
import { LIMITS, snowflakeSchema } from '@switchboard/contracts';
import { normaliseText, storableString } from '@switchboard/webhook-formats';
import { AvatarError, parseAvatar, type AvatarImage } from './avatar-image.ts';

const { nameMinLength, nameMaxLength, tokenMaxLength } = LIMITS.webhooks;
const NAME_LENGTH_MESSAGE = `Webhook name length must be between ${nameMinLength} and ${nameMaxLength} characters`;

/**
 * A webhook name: storable, normalised
 * (docs/decisions.md#fluxer-webhook-names-and-text-normalisation: U+202E and form feeds removed,
 * then trimmed), then 1–80 characters counted in code points, as the database counts them. There
 * are no forbidden names.
 */
export const webhookNameSchema = storableString()
  .transform(normaliseText)
  .refine((name) => {
    const length = [...name].length;
    return length >= nameMinLength && length <= nameMaxLength;
  }, NAME_LENGTH_MESSAGE);

/** A base64 string or data URI, decoded and sniffed here (jpeg, png, webp, gif; ≤ 10 MiB). */
export const avatarSchema = z.string().transform((input, ctx): AvatarImage => {
  try {
    return parseAvatar(input);
  } catch (error) {
    if (!(error instanceof AvatarError)) throw error;
    ctx.issues.push({ code: 'custom', message: error.message, input });
    return z.NEVER;
  }
});

/** `null` clears the avatar; absent (or `""`, docs/decisions.md#bad-input) leaves it as it is. */
const avatarChange = avatarSchema.nullable().optional();

/**
 * The write-only shared secret (docs/decisions.md#webhook-secrets): code-host (`X-Hub-Signature-256`) and
 * error-tracker (`Sentry-Hook-Signature`) deliveries must then carry its HMAC. Never returned
 * or logged. `null` clears it; absent (or `""`) leaves it.
 */
const secretChange = storableString().min(1).max(LIMITS.webhooks.secretMaxLength).nullable().optional();

export const createWebhookBody = z.object({ name: webhookNameSchema, avatar: avatarChange, secret: secretChange });

export const updateWebhookBody = z.object({
  name: webhookNameSchema.optional(),
  avatar: avatarChange,
  channel_id: snowflakeSchema.optional(),
  secret: secretChange,
});

/**
 * Token PATCH changes only name and avatar (later Fluxer,
 * docs/decisions.md#fluxer-webhook-routes-and-check-order). A `channel_id` or a `secret` is an
 * unknown key here and, like every unknown key (docs/decisions.md#bad-input), ignored: the webhook
 * stays put, and whoever holds only the token cannot unset the secret that guards it.
 */
export const tokenUpdateWebhookBody = z.object({ name: webhookNameSchema.optional(), avatar: avatarChange });

export const webhookIdParams = z.object({ webhook_id: snowflakeSchema });

export const webhookTokenParams = z.object({
  webhook_id: snowflakeSchema,
  token: z.string().trim().min(1).max(tokenMaxLength),
});
