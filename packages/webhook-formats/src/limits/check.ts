import { LIMITS, type ValidationErrorItem } from '@switchboard/contracts';
import { embedTextLength, type Embed, type RenderedMessage } from '../message.ts';
import { isHttpUrl, isMediaUrl } from '../urls.ts';

const M = LIMITS.messages;

/** One broken limit, shaped as an item of a 400 `INVALID_FORM_BODY` body. */
export type LimitViolation = ValidationErrorItem;

type Report = (path: string, message: string, code: string) => void;

function checkLength(report: Report, path: string, value: string | undefined, min: number, max: number): void {
  if (value === undefined) return;
  if (value.length < min) report(path, `Must be at least ${min} characters.`, 'TOO_SMALL');
  if (value.length > max) report(path, `Must be at most ${max} characters.`, 'TOO_BIG');
}

function checkUrl(report: Report, path: string, value: string | undefined, media = false): void {
  if (value === undefined) return;
  if (!(media ? isMediaUrl(value) : isHttpUrl(value))) report(path, 'Not a valid URL.', 'INVALID_URL');
}

function checkEmbed(report: Report, embed: Embed, path: string): void {
  checkLength(report, `${path}.title`, embed.title, 1, M.embedTitleMaxLength);
  checkLength(report, `${path}.description`, embed.description, 1, M.embedDescriptionMaxLength);
  checkUrl(report, `${path}.url`, embed.url);
  if (embed.color !== undefined && !(Number.isInteger(embed.color) && embed.color >= 0 && embed.color <= 0xffffff)) {
    report(`${path}.color`, 'Must be an integer from 0 to 16777215.', 'INVALID_VALUE');
  }
  if (embed.timestamp !== undefined && Number.isNaN(Date.parse(embed.timestamp))) {
    report(`${path}.timestamp`, 'Not a valid ISO-8601 timestamp.', 'INVALID_FORMAT');
  }
  if (embed.author) {
    checkLength(report, `${path}.author.name`, embed.author.name, 1, M.embedAuthorNameMaxLength);
    checkUrl(report, `${path}.author.url`, embed.author.url);
    checkUrl(report, `${path}.author.icon_url`, embed.author.icon_url, true);
  }
  if (embed.footer) {
    checkLength(report, `${path}.footer.text`, embed.footer.text, 1, M.embedFooterTextMaxLength);
    checkUrl(report, `${path}.footer.icon_url`, embed.footer.icon_url, true);
  }
  checkUrl(report, `${path}.image.url`, embed.image?.url, true);
  checkUrl(report, `${path}.thumbnail.url`, embed.thumbnail?.url, true);
  const fields = embed.fields ?? [];
  if (fields.length > M.embedMaxFields)
    report(`${path}.fields`, `Must have at most ${M.embedMaxFields} fields.`, 'TOO_BIG');
  fields.forEach((field, index) => {
    checkLength(report, `${path}.fields.${index}.name`, field.name, 1, M.embedFieldNameMaxLength);
    checkLength(report, `${path}.fields.${index}.value`, field.value, 1, M.embedFieldValueMaxLength);
  });
}

/**
 * Every message limit of Fluxer's (docs/decisions.md#fluxer-webhook-messages) that `message`
 * breaks, with field paths; empty when the message may be stored. Checked on every delivery path,
 * whatever produced the message.
 */
export function findLimitViolations(message: RenderedMessage): LimitViolation[] {
  const violations: LimitViolation[] = [];
  const report: Report = (path, text, code) => violations.push({ path, message: text, code });
  checkLength(report, 'content', message.content, 0, M.maxContentLength);
  checkLength(report, 'username', message.username, LIMITS.webhooks.nameMinLength, LIMITS.webhooks.nameMaxLength);
  checkUrl(report, 'avatar_url', message.avatar_url);
  if (message.embeds.length > M.maxEmbeds) report('embeds', `Must have at most ${M.maxEmbeds} embeds.`, 'TOO_BIG');
  for (const [index, embed] of message.embeds.entries()) checkEmbed(report, embed, `embeds.${index}`);
  const total = message.embeds.reduce((sum, embed) => sum + embedTextLength(embed), 0);
  if (total > M.maxEmbedTotalChars) {
    report('embeds', `Embeds must total at most ${M.maxEmbedTotalChars} characters.`, 'TOO_BIG');
  }
  return violations;
}
