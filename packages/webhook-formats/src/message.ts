/**
 * The message every transformer produces: Discord-shaped, so the worker stores it as a
 * Fluxer/Discord webhook message. Colours are 0xRRGGBB integers; timestamps ISO-8601 strings.
 */
export interface EmbedAuthor {
  name: string;
  url?: string;
  icon_url?: string;
}

export interface EmbedFooter {
  text: string;
  icon_url?: string;
}

export interface EmbedField {
  name: string;
  value: string;
  inline: boolean;
}

export interface EmbedMedia {
  url: string;
}

export interface Embed {
  title?: string;
  description?: string;
  url?: string;
  color?: number;
  timestamp?: string;
  author?: EmbedAuthor;
  footer?: EmbedFooter;
  fields?: EmbedField[];
  image?: EmbedMedia;
  thumbnail?: EmbedMedia;
}

/** Mentions from webhooks never ping (docs/decisions.md#fluxer-plain-execute): every message carries this. */
export interface NoMentions {
  parse: [];
}

export interface RenderedMessage {
  content: string;
  embeds: Embed[];
  /** Overrides the webhook's name for this message only. */
  username?: string;
  /** A remote URL, stored as is and never fetched. */
  avatar_url?: string;
  allowed_mentions: NoMentions;
  flags?: number;
}

export function noMentions(): NoMentions {
  return { parse: [] };
}

/** A payload that deliberately produces no message; the route still answers its 2xx. */
export interface Ignored {
  kind: 'ignored';
  /** Why, for logs: never contains payload text. */
  reason: string;
}

export interface Produced {
  kind: 'message';
  message: RenderedMessage;
}

/** A body that validated but cannot become a message (no content and no embeds). */
export interface Rejected {
  kind: 'rejected';
  code: 'CANNOT_SEND_EMPTY_MESSAGE';
}

export type InboundOutcome = Produced | Ignored;
export type DirectOutcome = Produced | Rejected;

export function ignored(reason: string): Ignored {
  return { kind: 'ignored', reason };
}

export function produced(message: RenderedMessage): Produced {
  return { kind: 'message', message };
}

/** The parts of an embed that count against the 6000-character total. */
export interface EmbedText {
  title?: string | undefined;
  description?: string | undefined;
  footer?: { text: string } | undefined;
  author?: { name: string } | undefined;
  fields?: { name: string; value: string }[] | undefined;
}

/** Characters an embed counts against the 6000 total (docs/decisions.md#fluxer-webhook-messages). */
export function embedTextLength(embed: EmbedText): number {
  let total = (embed.title?.length ?? 0) + (embed.description?.length ?? 0);
  total += (embed.footer?.text.length ?? 0) + (embed.author?.name.length ?? 0);
  for (const field of embed.fields ?? []) total += field.name.length + field.value.length;
  return total;
}

/** Whether the embed shows anything at all once rendered. */
export function embedHasVisibleContent(embed: Embed): boolean {
  return Boolean(
    embed.title ||
      embed.description ||
      embed.author ||
      embed.footer ||
      embed.image ||
      embed.thumbnail ||
      (embed.fields && embed.fields.length > 0),
  );
}
