import { z } from 'zod';
import { optional } from '../schema-helpers.ts';

/** Slack sends some text as numbers in hand-written payloads; both read as text. */
const text = optional(z.union([z.string(), z.number()]).transform(String));

/** Seconds since the epoch, as a number or a string (Slack's own `ts` is "1503435956.000247"). */
const tsSchema = optional(
  z.union([z.number().min(0), z.string().regex(/^\d+(\.\d+)?$/, 'Must be a number of seconds.')]).transform(Number),
);

const fieldSchema = z.object({ title: text, value: text, short: optional(z.boolean()) });

const attachmentSchema = z.object({
  fallback: text,
  color: text,
  pretext: text,
  author_name: text,
  author_link: text,
  author_icon: text,
  title: text,
  title_link: text,
  text: text,
  fields: optional(z.array(fieldSchema)),
  image_url: text,
  thumb_url: text,
  footer: text,
  footer_icon: text,
  ts: tsSchema,
});

/**
 * A Slack incoming-webhook body (docs/decisions.md#fluxer-chat-app-deliveries). Lengths are not
 * limited here: the message is cut to the limits when rendered, so a long Slack payload still
 * posts. Everything Slack-only (`blocks`, `channel`, `icon_emoji`, `mrkdwn`, `actions`, …) is
 * stripped and ignored.
 */
export const chatAppBodySchema = z.object({
  text,
  username: text,
  icon_url: text,
  attachments: optional(z.array(attachmentSchema)),
});

export type ChatAppBody = z.output<typeof chatAppBodySchema>;
export type ChatAppAttachment = z.output<typeof attachmentSchema>;
