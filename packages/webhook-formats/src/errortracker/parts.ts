import { z } from 'zod';
import { noMentions, produced, type Embed, type EmbedField, type Produced } from '../message.ts';
import { truncateToLimits } from '../limits/truncate.ts';
import { displayText } from '../text.ts';
import { httpUrlOrUndefined } from '../urls.ts';

/** Who error-tracker messages are from (docs/decisions.md#fluxer-error-tracker-deliveries). */
export const ERROR_TRACKER_USERNAME = 'Sentry';

export const SENTRY_COLORS = {
  error: 0xeb4841,
  warning: 0xfcbd1f,
  info: 0x369df7,
  debug: 0x6c7293,
  /** Fluxer showed fatal as info blue; a fatal error is the most severe, so the darkest red. */
  fatal: 0xa30200,
  resolved: 0x009800,
  archived: 0x6c7293,
} as const;

export function levelColor(level: string | null | undefined): number {
  switch (level?.toLowerCase()) {
    case 'fatal':
      return SENTRY_COLORS.fatal;
    case 'error':
      return SENTRY_COLORS.error;
    case 'warning':
      return SENTRY_COLORS.warning;
    case 'debug':
      return SENTRY_COLORS.debug;
    default:
      return SENTRY_COLORS.info;
  }
}

/** A string or number Sentry may send as either (ids, counts), read as text. */
export const looseText = z.union([z.string(), z.number()]).transform(String).nullish().catch(undefined);

export const actorSchema = z.object({ name: looseText, type: looseText }).nullish().catch(undefined);

export function field(name: string, value: string | null | undefined, inline = true): EmbedField | undefined {
  const text = value?.trim();
  return text ? { name, value: displayText(text, 1024), inline } : undefined;
}

export interface SentryEmbedParts {
  title: string;
  url?: string | null | undefined;
  description?: string | undefined;
  color: number;
  fields?: (EmbedField | undefined)[];
  timestamp?: string | null | undefined;
}

/** One embed in a message from "Sentry", cut to the message limits. */
export function errorTrackerMessage(parts: SentryEmbedParts): Produced {
  const embed: Embed = { title: displayText(parts.title, 256), color: parts.color };
  const url = httpUrlOrUndefined(parts.url);
  if (url) embed.url = url;
  if (parts.description) embed.description = displayText(parts.description, 4096);
  const fields = (parts.fields ?? []).filter((item) => item !== undefined);
  if (fields.length > 0) embed.fields = fields;
  if (parts.timestamp && !Number.isNaN(Date.parse(parts.timestamp)))
    embed.timestamp = new Date(parts.timestamp).toISOString();
  return produced(
    truncateToLimits({
      content: '',
      embeds: [embed],
      username: ERROR_TRACKER_USERNAME,
      allowed_mentions: noMentions(),
    }),
  );
}

/** "by <name>" for people; automatic actions (actor Sentry, an application) say nothing. */
export function byActor(actor: z.output<typeof actorSchema>): string {
  return actor?.type === 'user' && actor.name ? ` by ${actor.name}` : '';
}
