import { z } from 'zod';
import { ignored, type InboundOutcome } from '../message.ts';
import { SENTRY_COLORS, actorSchema, byActor, errorTrackerMessage, field, levelColor, looseText } from './parts.ts';

const issueSchema = z.object({
  title: z.string(),
  shortId: looseText,
  culprit: looseText,
  level: looseText,
  substatus: looseText,
  web_url: looseText,
  permalink: looseText,
  project: z.object({ name: looseText, slug: looseText }).nullish().catch(undefined),
  assignedTo: z.object({ name: looseText, email: looseText }).nullish().catch(undefined),
});

export const issuePayloadSchema = z.object({
  actor: actorSchema,
  data: z.object({ issue: issueSchema }),
});

type Issue = z.output<typeof issueSchema>;

const SUBSTATUS_NOTES: Record<string, string> = {
  archived_until_escalating: ' until it escalates',
  archived_until_condition_met: ' until a condition is met',
  archived_forever: ' forever',
  regressed: ' (regressed)',
  escalating: ' (escalating)',
};

/** The line that says what happened to the issue; a new issue needs none. */
function actionLine(action: string, issue: Issue, by: string): string | undefined {
  const note = SUBSTATUS_NOTES[issue.substatus ?? ''] ?? '';
  switch (action) {
    case 'resolved':
      return `**Resolved**${by}`;
    case 'assigned': {
      const assignee = issue.assignedTo?.name ?? issue.assignedTo?.email;
      return assignee ? `**Assigned** to ${assignee}${by}` : `**Assigned**${by}`;
    }
    case 'archived':
      return `**Archived**${note}${by}`;
    case 'unresolved':
      return `**Unresolved**${note}${by}`;
    default:
      return undefined;
  }
}

function actionColor(action: string, issue: Issue): number {
  if (action === 'resolved') return SENTRY_COLORS.resolved;
  if (action === 'archived') return SENTRY_COLORS.archived;
  return levelColor(issue.level);
}

export const ISSUE_ACTIONS = ['created', 'resolved', 'assigned', 'archived', 'unresolved'] as const;

/** Resource `issue`: created, resolved, assigned, archived or unresolved (Sentry's docs). */
export function renderIssue(action: string, payload: unknown): InboundOutcome {
  if (!(ISSUE_ACTIONS as readonly string[]).includes(action))
    return ignored(`issue action ${action.slice(0, 64)} is not announced`);
  const parsed = issuePayloadSchema.safeParse(payload);
  if (!parsed.success) return ignored('issue payload lacks data.issue with a title');
  const { issue } = parsed.data.data;
  return errorTrackerMessage({
    title: issue.title,
    url: issue.web_url ?? issue.permalink,
    description: actionLine(action, issue, byActor(parsed.data.actor)),
    color: actionColor(action, issue),
    fields: [
      field('Culprit', issue.culprit, false),
      field('Project', issue.project?.name ?? issue.project?.slug),
      field('Level', issue.level?.toUpperCase()),
      field('ID', issue.shortId),
    ],
  });
}
