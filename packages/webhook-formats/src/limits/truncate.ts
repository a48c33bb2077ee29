import { LIMITS } from '@switchboard/contracts';
import { embedHasVisibleContent, type Embed, type EmbedField, type RenderedMessage } from '../message.ts';
import { normaliseText, truncate } from '../text.ts';
import { isHttpUrl, isMediaUrl } from '../urls.ts';

const M = LIMITS.messages;
/** A piece cut to fewer characters than this is dropped rather than shown as "x...". */
const MIN_TRUNCATED_LENGTH = 8;
/** Discord's idiom for a field name or value that must not be empty. */
const BLANK = '\u200b';

function keepUrl(value: string | undefined, media = false): string | undefined {
  if (value === undefined) return undefined;
  return (media ? isMediaUrl(value) : isHttpUrl(value)) ? value : undefined;
}

function nonEmpty(value: string | undefined, max: number): string | undefined {
  return value ? truncate(value, max) : undefined;
}

function clampField(field: EmbedField): EmbedField {
  return {
    name: truncate(field.name || BLANK, M.embedFieldNameMaxLength),
    value: truncate(field.value || BLANK, M.embedFieldValueMaxLength),
    inline: field.inline,
  };
}

/** Each piece of one embed within its own limit; invalid URLs and empty parts dropped. */
function clampEmbed(embed: Embed): Embed {
  const result: Embed = {};
  const title = nonEmpty(embed.title, M.embedTitleMaxLength);
  if (title) result.title = title;
  const description = nonEmpty(embed.description, M.embedDescriptionMaxLength);
  if (description) result.description = description;
  const url = keepUrl(embed.url);
  if (url) result.url = url;
  if (embed.color !== undefined && Number.isInteger(embed.color) && embed.color >= 0 && embed.color <= 0xffffff) {
    result.color = embed.color;
  }
  if (embed.timestamp !== undefined && !Number.isNaN(Date.parse(embed.timestamp))) result.timestamp = embed.timestamp;
  if (embed.author?.name) {
    const { url: authorUrl, icon_url: iconUrl } = embed.author;
    result.author = { name: truncate(embed.author.name, M.embedAuthorNameMaxLength) };
    if (keepUrl(authorUrl)) result.author.url = authorUrl;
    if (keepUrl(iconUrl, true)) result.author.icon_url = iconUrl;
  }
  if (embed.footer?.text) {
    result.footer = { text: truncate(embed.footer.text, M.embedFooterTextMaxLength) };
    if (keepUrl(embed.footer.icon_url, true)) result.footer.icon_url = embed.footer.icon_url;
  }
  if (embed.fields && embed.fields.length > 0) result.fields = embed.fields.slice(0, M.embedMaxFields).map(clampField);
  if (embed.image && keepUrl(embed.image.url, true)) result.image = { url: embed.image.url };
  if (embed.thumbnail && keepUrl(embed.thumbnail.url, true)) result.thumbnail = { url: embed.thumbnail.url };
  return result;
}

/** Hands out the 6000-character embed budget in reading order. */
class Budget {
  remaining: number = M.maxEmbedTotalChars;

  take(text: string | undefined): string | undefined {
    if (text === undefined) return undefined;
    if (text.length <= this.remaining) {
      this.remaining -= text.length;
      return text;
    }
    if (this.remaining < MIN_TRUNCATED_LENGTH) return undefined;
    const cut = truncate(text, this.remaining);
    this.remaining -= cut.length;
    return cut;
  }

  takeField(field: EmbedField): EmbedField | undefined {
    const room = this.remaining - field.name.length;
    if (room >= field.value.length || room >= MIN_TRUNCATED_LENGTH) {
      const name = this.take(field.name);
      const value = name === undefined ? undefined : this.take(field.value);
      if (name !== undefined && value !== undefined) return { name, value, inline: field.inline };
    }
    return undefined;
  }
}

function fitEmbed(embed: Embed, budget: Budget): Embed {
  const { title, description, author, footer, fields, ...rest } = embed;
  const result: Embed = { ...rest };
  const keptTitle = budget.take(title);
  if (keptTitle) result.title = keptTitle;
  const authorName = budget.take(author?.name);
  if (author && authorName) result.author = { ...author, name: authorName };
  const keptDescription = budget.take(description);
  if (keptDescription) result.description = keptDescription;
  const keptFields = (fields ?? []).map((field) => budget.takeField(field)).filter((field) => field !== undefined);
  if (keptFields.length > 0) result.fields = keptFields;
  const footerText = budget.take(footer?.text);
  if (footer && footerText) result.footer = { ...footer, text: footerText };
  return result;
}

/**
 * Cuts a generated message (code host, error tracker, chat app) down to the message limits,
 * deterministically: per-field limits first, then the 6000-character embed total handed out in
 * reading order (title, author, description, fields, footer; embed by embed). Invalid URLs are
 * dropped and embeds left with nothing to show removed, so real payloads never fail to post.
 */
export function truncateToLimits(message: RenderedMessage): RenderedMessage {
  const budget = new Budget();
  const embeds = message.embeds
    .slice(0, M.maxEmbeds)
    .map((embed) => fitEmbed(clampEmbed(embed), budget))
    .filter(embedHasVisibleContent);
  const result: RenderedMessage = {
    content: truncate(message.content, M.maxContentLength),
    embeds,
    allowed_mentions: { parse: [] },
  };
  const username = message.username === undefined ? '' : normaliseText(message.username);
  if (username) result.username = truncate(username, LIMITS.webhooks.nameMaxLength);
  if (keepUrl(message.avatar_url)) result.avatar_url = message.avatar_url;
  if (message.flags !== undefined) result.flags = message.flags;
  return result;
}
