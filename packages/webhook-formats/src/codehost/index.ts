import { ignored, type InboundOutcome } from '../message.ts';
import { isJsonObject } from '../schema-helpers.ts';
import { renderCheckRun, renderCheckSuite } from './check-events.ts';
import { renderDiscussion, renderDiscussionComment } from './discussion-events.ts';
import type { EventRenderer } from './handler.ts';
import {
  renderCommitComment,
  renderIssueComment,
  renderIssues,
  renderPullRequest,
  renderPullRequestReview,
  renderPullRequestReviewComment,
} from './issue-events.ts';
import { renderPush } from './push.ts';
import {
  renderCreate,
  renderDelete,
  renderFork,
  renderMember,
  renderPing,
  renderPublic,
  renderRelease,
  renderRepository,
  renderStar,
  renderWatch,
} from './repository-events.ts';

export { codeHostBodySchema, parseFormEncodedGitHubBody, type CodeHostBody, type FormBodyResult } from './body.ts';
export { CODE_HOST_USERNAME } from './parts.ts';
export { PUSH_LISTED_COMMITS } from './push.ts';

/**
 * The `X-GitHub-Event` values that can post a message. Every other event (and each listed
 * event's other actions) is accepted and ignored: the route answers 204 either way.
 */
const RENDERERS: Record<string, EventRenderer> = {
  push: renderPush,
  create: renderCreate,
  delete: renderDelete,
  issues: renderIssues,
  issue_comment: renderIssueComment,
  pull_request: renderPullRequest,
  pull_request_review: renderPullRequestReview,
  pull_request_review_comment: renderPullRequestReviewComment,
  commit_comment: renderCommitComment,
  fork: renderFork,
  member: renderMember,
  public: renderPublic,
  release: renderRelease,
  watch: renderWatch,
  star: renderStar,
  repository: renderRepository,
  check_run: renderCheckRun,
  check_suite: renderCheckSuite,
  discussion: renderDiscussion,
  discussion_comment: renderDiscussionComment,
  ping: renderPing,
};

export const CODE_HOST_EVENTS: readonly string[] = Object.keys(RENDERERS);

/**
 * Turns one code-host (GitHub) delivery into a message, or says why it posts nothing. The event
 * comes from the `X-GitHub-Event` header only, never from the payload's shape. Never throws:
 * whatever the payload holds, the outcome is a message within the limits or an ignored event.
 */
export function renderCodeHost(event: string | undefined, payload: unknown): InboundOutcome {
  const name = eventName(event);
  if (name === '') return ignored('no X-GitHub-Event header');
  const renderer = rendererOf(name);
  if (!renderer) return ignored(`event ${name.slice(0, 64)} is not announced`);
  if (!isJsonObject(payload)) return ignored('payload is not a JSON object');
  return renderer.render(payload);
}

/**
 * What of a delivery `renderCodeHost` reads: it renders the same outcome (after a JSON round
 * trip) from this as from the whole payload. The gateway enqueues this instead of the body:
 * a 7.7 KB push carries ~90 repository URLs and three copies of its author nobody reads, and
 * every byte of a job is copied through BullMQ's script, Redis, and the worker's parse. An
 * event that is never announced reads nothing, so its part is `{}`.
 */
export function codeHostReadPart(event: string | undefined, payload: unknown): unknown {
  const renderer = rendererOf(eventName(event));
  if (!renderer) return {};
  return isJsonObject(payload) ? renderer.readPart(payload) : payload;
}

function eventName(event: string | undefined): string {
  return event?.trim().toLowerCase() ?? '';
}

function rendererOf(name: string): EventRenderer | undefined {
  return Object.hasOwn(RENDERERS, name) ? RENDERERS[name] : undefined;
}
