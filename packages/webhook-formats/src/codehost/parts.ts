import { z } from 'zod';
import { noMentions, produced, type Embed, type EmbedAuthor, type Produced } from '../message.ts';
import { truncateToLimits } from '../limits/truncate.ts';
import { displayText } from '../text.ts';
import { httpUrlOrUndefined } from '../urls.ts';

/**
 * Who GitHub messages are from (docs/decisions.md#fluxer-code-host-deliveries: the author name is
 * the fixed string).
 */
export const CODE_HOST_USERNAME = 'GitHub';

/**
 * docs/decisions.md#fluxer-code-host-deliveries: most titles are cut to 70 characters, push and
 * check titles to 256.
 */
export const TITLE_MAX = 70;
export const LONG_TITLE_MAX = 256;
export const DESCRIPTION_MAX = 350;

export const COLORS = {
  push: 0x7289da,
  forcedPush: 0xfcbd1f,
  issueOpened: 0xeb4841,
  closed: 0x000000,
  reopened: 0xfcbd1f,
  comment: 0xc00a7f,
  pullRequestOpened: 0x098efc,
  /** GitHub's own colour for merged pull requests. */
  merged: 0x6f42c1,
  repositoryCreated: 0x2cbe4e,
  success: 0x009800,
  failure: 0xfc2929,
  discussion: 0xe6c2b0,
} as const;

/** A user as payloads carry it; only `login` matters, the links are optional. */
export const userSchema = z.object({
  login: z.string(),
  html_url: z.string().nullish(),
  avatar_url: z.string().nullish(),
});

/** A user that may be missing or malformed without costing the message (e.g. a deleted account). */
export const optionalUser = userSchema.nullish().catch(undefined);

export const repositorySchema = z.object({
  name: z.string(),
  full_name: z.string(),
  html_url: z.string(),
});

/** Text a payload may set to null, or omit. */
export const optionalText = z.string().nullish().catch(undefined);

export type User = z.output<typeof userSchema>;

export function authorOf(user: User | null | undefined): EmbedAuthor | undefined {
  if (!user) return undefined;
  const author: EmbedAuthor = { name: user.login };
  const url = httpUrlOrUndefined(user.html_url);
  const icon = httpUrlOrUndefined(user.avatar_url);
  if (url) author.url = url;
  if (icon) author.icon_url = icon;
  return author;
}

export interface EmbedParts {
  title: string;
  titleMax?: number;
  url?: string | null | undefined;
  description?: string | null | undefined;
  descriptionMax?: number;
  author?: User | null | undefined;
  color?: number;
}

/** One embed, text cleaned as Fluxer's parseString, in a message from "GitHub". */
export function codeHostMessage(parts: EmbedParts): Produced {
  const embed: Embed = { title: displayText(parts.title, parts.titleMax ?? TITLE_MAX) };
  const url = httpUrlOrUndefined(parts.url);
  if (url) embed.url = url;
  const description = parts.description ? displayText(parts.description, parts.descriptionMax ?? DESCRIPTION_MAX) : '';
  if (description) embed.description = description;
  const author = authorOf(parts.author);
  if (author) embed.author = author;
  if (parts.color !== undefined) embed.color = parts.color;
  return produced(
    truncateToLimits({ content: '', embeds: [embed], username: CODE_HOST_USERNAME, allowed_mentions: noMentions() }),
  );
}

export function shortSha(sha: string): string {
  return sha.slice(0, 7);
}
