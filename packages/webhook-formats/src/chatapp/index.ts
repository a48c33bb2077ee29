import {
  embedHasVisibleContent,
  noMentions,
  produced,
  type DirectOutcome,
  type Embed,
  type EmbedField,
} from '../message.ts';
import { truncateToLimits } from '../limits/truncate.ts';
import { normaliseText } from '../text.ts';
import { httpUrlOrUndefined } from '../urls.ts';
import { slackColor } from './colors.ts';
import { slackToMarkdown } from './mrkdwn.ts';
import type { ChatAppAttachment, ChatAppBody } from './schema.ts';

export { chatAppBodySchema, type ChatAppAttachment, type ChatAppBody } from './schema.ts';
export { SLACK_PRESET_COLORS, slackColor } from './colors.ts';
export { slackToMarkdown } from './mrkdwn.ts';

/** Discord's idiom for a field without a title. */
const BLANK = '\u200b';

function fieldsOf(attachment: ChatAppAttachment): EmbedField[] {
  const fields: EmbedField[] = [];
  for (const field of attachment.fields ?? []) {
    const value = field.value?.trim();
    if (!value) continue;
    fields.push({ name: field.title?.trim() || BLANK, value: slackToMarkdown(value), inline: field.short ?? false });
  }
  return fields;
}

function describe(attachment: ChatAppAttachment): string | undefined {
  const parts = [attachment.pretext, attachment.text].filter((part) => part !== undefined);
  // Slack shows `fallback` only where nothing richer exists; so does the embed.
  const text = parts.length > 0 ? parts.join('\n') : attachment.fallback;
  return text === undefined ? undefined : slackToMarkdown(text).trim() || undefined;
}

/** One attachment as one embed; nothing when no property maps to something visible. */
function toEmbed(attachment: ChatAppAttachment): Embed | undefined {
  const embed: Embed = {};
  if (attachment.title?.trim()) embed.title = slackToMarkdown(attachment.title.trim());
  const url = httpUrlOrUndefined(attachment.title_link);
  if (url) embed.url = url;
  const description = describe(attachment);
  if (description) embed.description = description;
  if (attachment.author_name?.trim()) {
    embed.author = { name: attachment.author_name.trim() };
    const link = httpUrlOrUndefined(attachment.author_link);
    const icon = httpUrlOrUndefined(attachment.author_icon);
    if (link) embed.author.url = link;
    if (icon) embed.author.icon_url = icon;
  }
  const fields = fieldsOf(attachment);
  if (fields.length > 0) embed.fields = fields;
  if (attachment.footer?.trim()) {
    embed.footer = { text: attachment.footer.trim() };
    const icon = httpUrlOrUndefined(attachment.footer_icon);
    if (icon) embed.footer.icon_url = icon;
  }
  const image = httpUrlOrUndefined(attachment.image_url);
  if (image) embed.image = { url: image };
  const thumbnail = httpUrlOrUndefined(attachment.thumb_url);
  if (thumbnail) embed.thumbnail = { url: thumbnail };
  if (!embedHasVisibleContent(embed)) return undefined;
  const color = slackColor(attachment.color);
  if (color !== undefined) embed.color = color;
  if (attachment.ts !== undefined) {
    const time = new Date(Math.round(attachment.ts * 1000));
    if (!Number.isNaN(time.getTime())) embed.timestamp = time.toISOString();
  }
  return embed;
}

/**
 * A chat-app (Slack) body as a message, cut to the message limits; a body with no text and no
 * usable attachment is the empty-message rejection (a JSON 400, not `ok`).
 */
export function renderChatApp(body: ChatAppBody): DirectOutcome {
  const content = body.text === undefined ? '' : normaliseText(slackToMarkdown(body.text));
  const embeds = (body.attachments ?? []).map(toEmbed).filter((embed) => embed !== undefined);
  if (content === '' && embeds.length === 0) return { kind: 'rejected', code: 'CANNOT_SEND_EMPTY_MESSAGE' };
  const username = body.username === undefined ? undefined : normaliseText(body.username);
  const avatar = httpUrlOrUndefined(body.icon_url);
  return produced(
    truncateToLimits({
      content,
      embeds,
      allowed_mentions: noMentions(),
      ...(username ? { username } : {}),
      ...(avatar ? { avatar_url: avatar } : {}),
    }),
  );
}
