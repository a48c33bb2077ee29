import { z } from 'zod';
import { ignored } from '../message.ts';
import { ignoredAction, withSchema } from './handler.ts';
import { COLORS, codeHostMessage, optionalText, optionalUser, repositorySchema } from './parts.ts';

/** An issue or pull request: ids and numbers are read as any number, never as int32. */
const itemSchema = z.object({
  number: z.number(),
  title: z.string(),
  html_url: z.string(),
  body: optionalText,
  user: optionalUser,
  // Present (an object of links) when the issue is a pull request.
  pull_request: z.unknown().optional(),
  merged: z.boolean().nullish(),
  draft: z.boolean().nullish(),
});

const commentSchema = z.object({
  html_url: z.string(),
  body: optionalText,
  user: optionalUser,
});

const STATE_COLORS: Record<string, number> = {
  opened: COLORS.issueOpened,
  closed: COLORS.closed,
  reopened: COLORS.reopened,
};

export const renderIssues = withSchema(
  'issues',
  z.object({ action: z.string(), issue: itemSchema, repository: repositorySchema }),
  ({ action, issue, repository }) => {
    const color = STATE_COLORS[action];
    if (color === undefined) return ignoredAction('issues', action);
    return codeHostMessage({
      title: `[${repository.full_name}] Issue ${action}: #${issue.number} ${issue.title}`,
      url: issue.html_url,
      description: action === 'opened' ? issue.body : undefined,
      // docs/decisions.md#fluxer-code-host-deliveries: issue and pull request messages credit the
      // item's author, not the sender.
      author: issue.user,
      color,
    });
  },
);

export const renderIssueComment = withSchema(
  'issue_comment',
  z.object({ action: z.string(), issue: itemSchema, comment: commentSchema, repository: repositorySchema }),
  (payload) => {
    if (payload.action !== 'created') return ignoredAction('issue_comment', payload.action);
    // GitHub marks a comment on a pull request with `issue.pull_request` (Fluxer read a top-level key).
    const onPullRequest =
      payload.issue.pull_request != null || (payload as Record<string, unknown>)['pull_request'] != null;
    const kind = onPullRequest ? 'pull request' : 'issue';
    return codeHostMessage({
      title: `[${payload.repository.full_name}] New comment on ${kind} #${payload.issue.number}: ${payload.issue.title}`,
      url: payload.comment.html_url,
      description: payload.comment.body,
      author: payload.comment.user,
      color: COLORS.comment,
    });
  },
);

function pullRequestState(
  action: string,
  pullRequest: z.output<typeof itemSchema>,
): { verb: string; color: number } | undefined {
  if (action === 'opened')
    return { verb: pullRequest.draft ? 'opened as draft' : 'opened', color: COLORS.pullRequestOpened };
  if (action === 'closed')
    return pullRequest.merged ? { verb: 'merged', color: COLORS.merged } : { verb: 'closed', color: COLORS.closed };
  if (action === 'reopened') return { verb: 'reopened', color: COLORS.reopened };
  if (action === 'ready_for_review') return { verb: 'ready for review', color: COLORS.pullRequestOpened };
  return undefined;
}

export const renderPullRequest = withSchema(
  'pull_request',
  z.object({ action: z.string(), pull_request: itemSchema, repository: repositorySchema }),
  ({ action, pull_request: pullRequest, repository }) => {
    const state = pullRequestState(action, pullRequest);
    if (!state) return ignoredAction('pull_request', action);
    return codeHostMessage({
      title: `[${repository.full_name}] Pull request ${state.verb}: #${pullRequest.number} ${pullRequest.title}`,
      url: pullRequest.html_url,
      description: action === 'opened' ? pullRequest.body : undefined,
      author: pullRequest.user,
      color: state.color,
    });
  },
);

const REVIEW_TITLES: Record<string, { title: string; color: number }> = {
  approved: { title: 'Pull request approved', color: COLORS.success },
  changes_requested: { title: 'Changes requested on pull request', color: COLORS.failure },
};

export const renderPullRequestReview = withSchema(
  'pull_request_review',
  z.object({
    action: z.string(),
    // The review URL carries `#pullrequestreview-N`: any string is accepted (Fluxer refused it).
    review: z.object({ html_url: z.string(), state: z.string(), body: optionalText, user: optionalUser }),
    pull_request: itemSchema,
    repository: repositorySchema,
  }),
  ({ action, review, pull_request: pullRequest, repository }) => {
    if (action !== 'submitted') return ignoredAction('pull_request_review', action);
    const state = review.state.toLowerCase();
    // A comment-only review without a summary wraps review comments, which post on their own.
    if (state === 'commented' && !review.body?.trim()) return ignored('comment-only review without a body');
    const heading = REVIEW_TITLES[state] ?? { title: 'Pull request review submitted', color: COLORS.closed };
    return codeHostMessage({
      title: `[${repository.full_name}] ${heading.title}: #${pullRequest.number} ${pullRequest.title}`,
      url: review.html_url,
      description: review.body || 'No description provided',
      author: review.user,
      color: heading.color,
    });
  },
);

export const renderPullRequestReviewComment = withSchema(
  'pull_request_review_comment',
  z.object({ action: z.string(), comment: commentSchema, pull_request: itemSchema, repository: repositorySchema }),
  ({ action, comment, pull_request: pullRequest, repository }) => {
    if (action !== 'created') return ignoredAction('pull_request_review_comment', action);
    return codeHostMessage({
      title: `[${repository.full_name}] New review comment on pull request #${pullRequest.number}: ${pullRequest.title}`,
      url: comment.html_url,
      description: comment.body || 'No description provided',
      author: comment.user,
      color: COLORS.comment,
    });
  },
);

export const renderCommitComment = withSchema(
  'commit_comment',
  z.object({
    action: z.string(),
    comment: commentSchema.extend({ commit_id: z.string() }),
    repository: repositorySchema,
  }),
  ({ action, comment, repository }) => {
    if (action !== 'created') return ignoredAction('commit_comment', action);
    return codeHostMessage({
      title: `[${repository.full_name}] New comment on commit \`${comment.commit_id.slice(0, 7)}\``,
      url: comment.html_url,
      description: comment.body,
      author: comment.user,
    });
  },
);
