import { z } from 'zod';
import { ignored } from '../message.ts';
import { ignoredAction, withSchema } from './handler.ts';
import { COLORS, LONG_TITLE_MAX, codeHostMessage, repositorySchema } from './parts.ts';

const nullableText = z.string().nullish().catch(undefined);

interface CheckSummary {
  repository: z.output<typeof repositorySchema>;
  subject: string;
  conclusion: string | null | undefined;
  headBranch: string | null | undefined;
  headSha: string | null | undefined;
  url: string | null | undefined;
}

/** Completed checks post their outcome; skipped ones post nothing (docs/decisions.md#fluxer-code-host-deliveries). */
function checkMessage(event: string, action: string, check: CheckSummary) {
  if (action !== 'completed') return ignoredAction(event, action);
  if (check.conclusion === 'skipped') return ignored(`${event} was skipped`);
  const branch = check.headBranch ? ` on ${check.headBranch}` : '';
  const commitUrl = check.headSha ? `${check.repository.html_url}/commit/${check.headSha}` : undefined;
  return codeHostMessage({
    title: `[${check.repository.name}] ${check.subject} ${check.conclusion ?? 'completed'}${branch}`,
    titleMax: LONG_TITLE_MAX,
    url: check.url ?? commitUrl,
    color: check.conclusion === 'success' ? COLORS.success : COLORS.failure,
  });
}

export const renderCheckRun = withSchema(
  'check_run',
  z.object({
    action: z.string(),
    check_run: z.object({
      name: z.string(),
      conclusion: nullableText,
      head_sha: nullableText,
      html_url: nullableText,
      check_suite: z.object({ head_branch: nullableText }).nullish().catch(undefined),
    }),
    repository: repositorySchema,
  }),
  ({ action, check_run: run, repository }) =>
    checkMessage('check_run', action, {
      repository,
      subject: run.name,
      // Fluxer read the suite's conclusion here; the run's own is what the title reports.
      conclusion: run.conclusion,
      headBranch: run.check_suite?.head_branch,
      headSha: run.head_sha,
      url: run.html_url,
    }),
);

export const renderCheckSuite = withSchema(
  'check_suite',
  z.object({
    action: z.string(),
    check_suite: z.object({
      conclusion: nullableText,
      head_branch: nullableText,
      head_sha: nullableText,
      app: z.object({ name: z.string() }).nullish().catch(undefined),
    }),
    repository: repositorySchema,
  }),
  ({ action, check_suite: suite, repository }) =>
    checkMessage('check_suite', action, {
      repository,
      subject: `${suite.app?.name ?? 'Check suite'} checks`,
      conclusion: suite.conclusion,
      headBranch: suite.head_branch,
      headSha: suite.head_sha,
      url: undefined,
    }),
);
