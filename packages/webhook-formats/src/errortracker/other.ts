import { z } from 'zod';
import { ignored, type InboundOutcome } from '../message.ts';
import { SENTRY_COLORS, actorSchema, byActor, errorTrackerMessage, field, levelColor, looseText } from './parts.ts';

export const installationPayloadSchema = z.object({
  actor: actorSchema,
  data: z
    .object({ installation: z.object({ organization: z.object({ slug: looseText }).nullish().catch(undefined) }) })
    .nullish()
    .catch(undefined),
});

export const commentPayloadSchema = z.object({
  actor: actorSchema,
  data: z.object({ comment: z.string(), issue_id: looseText, project_slug: looseText }),
});

/** Resource `installation`: the integration was installed or uninstalled, worth a line in the channel. */
export function renderInstallation(action: string, payload: unknown): InboundOutcome {
  if (action !== 'created' && action !== 'deleted')
    return ignored(`installation action ${action.slice(0, 64)} is not announced`);
  const parsed = installationPayloadSchema.safeParse(payload);
  const body = parsed.success ? parsed.data : undefined;
  const organization = body?.data?.installation.organization?.slug;
  return errorTrackerMessage({
    title: action === 'created' ? 'Sentry integration installed' : 'Sentry integration uninstalled',
    description: `${organization ? `Organization **${organization}**` : 'Sentry'}${byActor(body?.actor)}`.trim(),
    color: action === 'created' ? SENTRY_COLORS.resolved : SENTRY_COLORS.archived,
  });
}

/** Resource `comment`: a new comment on an issue (edits and deletions post nothing). */
export function renderComment(action: string, payload: unknown): InboundOutcome {
  if (action !== 'created') return ignored(`comment action ${action.slice(0, 64)} is not announced`);
  const parsed = commentPayloadSchema.safeParse(payload);
  if (!parsed.success) return ignored('comment payload lacks data.comment');
  const { data, actor } = parsed.data;
  return errorTrackerMessage({
    title: `New comment on issue ${data.issue_id ?? ''}${byActor(actor)}`.trim(),
    description: data.comment,
    color: SENTRY_COLORS.info,
    fields: [field('Project', data.project_slug)],
  });
}

export const legacySchema = z.object({
  message: looseText,
  url: looseText,
  culprit: looseText,
  level: looseText,
  project_name: looseText,
  project: looseText,
});

/**
 * Sentry's legacy "WebHooks" plugin posts without a resource header: `{project_name, message,
 * culprit, level, url, …}`. Recognised by `project_name` or `project` with a `url`.
 */
export function renderLegacyPlugin(payload: unknown): InboundOutcome | undefined {
  const parsed = legacySchema.safeParse(payload);
  if (!parsed.success) return undefined;
  const legacy = parsed.data;
  const project = legacy.project_name ?? legacy.project;
  if (!project || !legacy.url) return undefined;
  return errorTrackerMessage({
    title: legacy.message || legacy.culprit || 'New Sentry event',
    url: legacy.url,
    color: levelColor(legacy.level),
    fields: [
      field('Culprit', legacy.culprit, false),
      field('Project', project),
      field('Level', legacy.level?.toUpperCase()),
    ],
  });
}
