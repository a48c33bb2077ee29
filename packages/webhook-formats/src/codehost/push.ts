import { z } from 'zod';
import { ignored } from '../message.ts';
import { firstLine, truncate } from '../text.ts';
import { withSchema } from './handler.ts';
import {
  COLORS,
  LONG_TITLE_MAX,
  codeHostMessage,
  optionalText,
  optionalUser,
  repositorySchema,
  shortSha,
} from './parts.ts';

/** Commits listed in a push message; the compare link shows the rest. */
export const PUSH_LISTED_COMMITS = 5;
/** Length of each listed commit's first line. */
const COMMIT_LINE_MAX = 50;

const commitSchema = z.object({
  id: z.string(),
  url: z.string(),
  message: z.string(),
  author: z.object({ name: z.string().nullish(), username: z.string().nullish() }).nullish().catch(undefined),
});

const pushSchema = z.object({
  ref: z.string(),
  compare: optionalText,
  forced: z.boolean().nullish(),
  deleted: z.boolean().nullish(),
  commits: z.array(commitSchema).nullish(),
  head_commit: z.object({ id: z.string() }).nullish().catch(undefined),
  repository: repositorySchema,
  sender: optionalUser,
});

type Push = z.output<typeof pushSchema>;
type Commit = z.output<typeof commitSchema>;

/** `refs/heads/main` → Branch main, `refs/tags/v1` → Tag v1; anything else is shown whole. */
export function describeRef(ref: string): { kind: 'Branch' | 'Tag' | 'Ref'; name: string } {
  if (ref.startsWith('refs/heads/')) return { kind: 'Branch', name: ref.slice('refs/heads/'.length) };
  if (ref.startsWith('refs/tags/')) return { kind: 'Tag', name: ref.slice('refs/tags/'.length) };
  return { kind: 'Ref', name: ref };
}

function commitLine(commit: Commit): string {
  const who = commit.author?.name ?? commit.author?.username;
  const text = truncate(firstLine(commit.message).trim(), COMMIT_LINE_MAX);
  return `[\`${shortSha(commit.id)}\`](${commit.url}) ${text}${who ? ` - ${who}` : ''}`;
}

function commitList(commits: Commit[]): string {
  const lines = commits.slice(0, PUSH_LISTED_COMMITS).map(commitLine);
  const more = commits.length - PUSH_LISTED_COMMITS;
  if (more > 0) lines.push(`... and ${more} more commit${more === 1 ? '' : 's'}`);
  return lines.join('\n');
}

function renderForced(push: Push) {
  if (!push.head_commit) return ignored('forced push without a head commit');
  const { kind, name } = describeRef(push.ref);
  return codeHostMessage({
    title: `[${push.repository.name}] ${kind} ${name} was force-pushed to \`${shortSha(push.head_commit.id)}\``,
    titleMax: LONG_TITLE_MAX,
    url: push.compare,
    description: push.compare ? `[Compare changes](${push.compare})` : undefined,
    author: push.sender,
    color: COLORS.forcedPush,
  });
}

/**
 * Deletions and pushes without commits (a new tag, an empty new branch) post nothing: the
 * create/delete events announce them.
 */
export const renderPush = withSchema('push', pushSchema, (push) => {
  if (push.deleted) return ignored('push deleting a ref (announced by the delete event)');
  if (push.forced) return renderForced(push);
  const commits = push.commits ?? [];
  if (commits.length === 0) return ignored('push without commits');
  const count = `${commits.length} new commit${commits.length === 1 ? '' : 's'}`;
  return codeHostMessage({
    title: `[${push.repository.name}:${describeRef(push.ref).name}] ${count}`,
    titleMax: LONG_TITLE_MAX,
    url: push.compare,
    // Built line by line within the limits, so no cut can break a link in the middle.
    description: commitList(commits),
    descriptionMax: 4096,
    author: push.sender,
    color: COLORS.push,
  });
});
