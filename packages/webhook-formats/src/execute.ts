import { LIMITS } from '@switchboard/contracts';
import { z } from 'zod';
import {
  embedTextLength,
  noMentions,
  produced,
  type DirectOutcome,
  type Embed,
  type RenderedMessage,
} from './message.ts';
import { httpUrlSchema, mediaUrlSchema, normalisedText, optional, storableString } from './schema-helpers.ts';
import { normaliseText } from './text.ts';

const M = LIMITS.messages;

/** Message flags a webhook may set (Fluxer's SENDABLE_MESSAGE_FLAGS without attachment flags). */
export const SENDABLE_MESSAGE_FLAGS = (1 << 2) | (1 << 12); // SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(T|$)/;

/** ISO-8601 text or integer milliseconds since the epoch, emitted as ISO-8601 UTC. */
const timestampSchema = z
  .union([
    z
      .string()
      .refine((value) => ISO_DATE.test(value) && !Number.isNaN(Date.parse(value)), 'Not an ISO-8601 timestamp.'),
    z.int().min(0).max(8_640_000_000_000_000),
  ])
  .transform((value) => new Date(value).toISOString());

const embedFieldSchema = z.object({
  name: normalisedText(1, M.embedFieldNameMaxLength),
  value: normalisedText(1, M.embedFieldValueMaxLength),
  inline: optional(z.boolean()),
});

const embedMediaSchema = z.object({ url: mediaUrlSchema });

/**
 * A rich embed as Discord and Fluxer accept it (docs/decisions.md#fluxer-webhook-messages); unknown
 * keys are stripped.
 */
export const embedSchema = z.object({
  title: optional(normalisedText(1, M.embedTitleMaxLength)),
  description: optional(normalisedText(1, M.embedDescriptionMaxLength)),
  url: optional(httpUrlSchema),
  color: optional(z.int().min(0).max(0xffffff)),
  timestamp: optional(timestampSchema),
  author: optional(
    z.object({
      name: normalisedText(1, M.embedAuthorNameMaxLength),
      url: optional(httpUrlSchema),
      icon_url: optional(mediaUrlSchema),
    }),
  ),
  footer: optional(
    z.object({ text: normalisedText(1, M.embedFooterTextMaxLength), icon_url: optional(mediaUrlSchema) }),
  ),
  fields: optional(z.array(embedFieldSchema).max(M.embedMaxFields)),
  image: optional(embedMediaSchema),
  thumbnail: optional(embedMediaSchema),
});

const snowflakeLike = z.union([z.string().regex(/^\d{1,20}$/), z.int().min(0)]);

/** Message text: storable, normalised as Fluxer does, at most 2000 characters. */
const contentField = optional(storableString().transform(normaliseText).pipe(z.string().max(M.maxContentLength)));
const embedsField = optional(z.array(embedSchema).max(M.maxEmbeds));

/** All embeds of a message together: at most 6000 characters (docs/decisions.md#fluxer-webhook-messages). */
function checkEmbedTotal(
  body: { embeds?: Array<z.output<typeof embedSchema>> | undefined },
  context: z.RefinementCtx,
): void {
  const total = (body.embeds ?? []).reduce((sum, embed) => sum + embedTextLength(embed), 0);
  if (total > M.maxEmbedTotalChars) {
    context.addIssue({
      code: 'custom',
      path: ['embeds'],
      message: `Embeds must total at most ${M.maxEmbedTotalChars} characters.`,
      params: { code: 'TOO_BIG' },
    });
  }
}

/**
 * Body of plain execute, Fluxer's `WebhookMessageRequest` (docs/decisions.md#fluxer-plain-execute). Limits are checked
 * here so the gateway answers 400 with field paths before enqueueing; emptiness is not (it is
 * decided after the token lookup: an empty body with a bad token is a 404).
 */
export const executeBodySchema = z
  .object({
    content: contentField,
    username: optional(normalisedText(LIMITS.webhooks.nameMinLength, LIMITS.webhooks.nameMaxLength)),
    avatar_url: optional(httpUrlSchema),
    tts: optional(z.boolean()),
    embeds: embedsField,
    // Accepted for compatibility, then overridden: webhook mentions never ping.
    allowed_mentions: optional(z.looseObject({})),
    flags: optional(z.int().min(0)),
    // Accepted and unused, as Fluxer (docs/decisions.md#fluxer-plain-execute).
    nonce: optional(z.union([z.string().max(32), z.int()])),
    attachments: optional(z.array(z.looseObject({})).max(10)),
    sticker_ids: optional(z.array(snowflakeLike).max(3)),
    message_reference: optional(z.looseObject({})),
  })
  .superRefine(checkEmbedTotal);

/**
 * Body of an edit through the webhook token (Discord's PATCH …/messages/{id}): content, embeds
 * and allowed_mentions, with execute's validation and limits. An absent (or `null`, `""`,
 * docs/decisions.md#bad-input) field is left as it is; `embeds: []` removes the embeds.
 */
export const editMessageBodySchema = z
  .object({ content: contentField, embeds: embedsField, allowed_mentions: optional(z.looseObject({})) })
  .superRefine(checkEmbedTotal);

export type EditMessageBody = z.output<typeof editMessageBodySchema>;

export type ExecuteBody = z.output<typeof executeBodySchema>;
export type ExecuteBodyInput = z.input<typeof executeBodySchema>;

type ExecuteEmbed = z.output<typeof embedSchema>;

function toEmbed(embed: ExecuteEmbed): Embed {
  const result: Embed = {};
  if (embed.title !== undefined) result.title = embed.title;
  if (embed.description !== undefined) result.description = embed.description;
  if (embed.url !== undefined) result.url = embed.url;
  if (embed.color !== undefined) result.color = embed.color;
  if (embed.timestamp !== undefined) result.timestamp = embed.timestamp;
  if (embed.author) result.author = withoutUndefined(embed.author);
  if (embed.footer) result.footer = withoutUndefined(embed.footer);
  if (embed.fields)
    result.fields = embed.fields.map((field) => ({
      name: field.name,
      value: field.value,
      inline: field.inline ?? false,
    }));
  if (embed.image) result.image = { url: embed.image.url };
  if (embed.thumbnail) result.thumbnail = { url: embed.thumbnail.url };
  return result;
}

/** Drops keys whose value is undefined, so stored embeds carry only what was set. */
function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, field]) => field !== undefined)) as T;
}

/**
 * Whether the parsed body would post nothing: no content after trimming and no embeds.
 * Attachments and stickers do not count: this service stores neither.
 */
export function isEmptyExecuteBody(body: ExecuteBody): boolean {
  return !body.content && (body.embeds ?? []).length === 0;
}

/** Plain execute: the parsed body as the message to store, or the empty-message rejection. */
export function renderExecute(body: ExecuteBody): DirectOutcome {
  if (isEmptyExecuteBody(body)) return { kind: 'rejected', code: 'CANNOT_SEND_EMPTY_MESSAGE' };
  const message: RenderedMessage = {
    content: body.content ?? '',
    embeds: (body.embeds ?? []).map(toEmbed),
    allowed_mentions: noMentions(),
  };
  if (body.username) message.username = body.username;
  if (body.avatar_url) message.avatar_url = body.avatar_url;
  const flags = (body.flags ?? 0) & SENDABLE_MESSAGE_FLAGS;
  if (flags !== 0) message.flags = flags;
  return produced(message);
}

/** What an edit replaces, rendered as plain execute renders it; an absent key keeps the stored value. */
export function renderEdit(body: EditMessageBody): { content?: string; embeds?: Embed[] } {
  return {
    ...(body.content !== undefined ? { content: body.content } : {}),
    ...(body.embeds !== undefined ? { embeds: body.embeds.map(toEmbed) } : {}),
  };
}
