import { describe, expect, it } from 'vitest';
import { renderCodeHost, type InboundOutcome, type RenderedMessage } from '../src/index.ts';
import { example } from './support/corpus.ts';

function message(outcome: InboundOutcome): RenderedMessage {
  if (outcome.kind !== 'message') throw new Error(`expected a message, got: ${outcome.reason}`);
  return outcome.message;
}

function embeds(outcome: InboundOutcome): RenderedMessage['embeds'] {
  return message(outcome).embeds;
}

/** The sender of most api.github.com examples, as the embed author. */
const CODERTOCAT = {
  icon_url: 'https://avatars1.githubusercontent.com/u/21031067?v=4',
  name: 'Codertocat',
  url: 'https://github.com/Codertocat',
};

function commit(index: number, message: string) {
  const id = `${index}`.padStart(2, '0').repeat(20);
  return {
    id,
    message,
    url: `https://github.com/Codertocat/Hello-World/commit/${id}`,
    author: { name: `Author ${index}`, email: 'a@example.com', username: `author${index}` },
  };
}

describe('push', () => {
  it('lists up to five commits by short sha and first line, with the compare link', () => {
    const payload = example('push');
    payload['ref'] = 'refs/heads/main';
    payload['deleted'] = false;
    payload['compare'] = 'https://github.com/Codertocat/Hello-World/compare/aaaaaaa...bbbbbbb';
    payload['commits'] = [
      commit(1, 'Fix the parser\n\nLong explanation that stays out of the message.'),
      commit(2, 'A first line that is much longer than fifty characters and gets cut'),
      commit(3, 'Three'),
      commit(4, 'Four'),
      commit(5, 'Five'),
      commit(6, 'Six'),
      commit(7, 'Seven'),
    ];
    expect(message(renderCodeHost('push', payload))).toStrictEqual({
      allowed_mentions: { parse: [] },
      content: '',
      embeds: [
        {
          author: CODERTOCAT,
          color: 7506394,
          description: [
            '[`0101010`](https://github.com/Codertocat/Hello-World/commit/0101010101010101010101010101010101010101) Fix the parser - Author 1',
            '[`0202020`](https://github.com/Codertocat/Hello-World/commit/0202020202020202020202020202020202020202) A first line that is much longer than fifty cha... - Author 2',
            '[`0303030`](https://github.com/Codertocat/Hello-World/commit/0303030303030303030303030303030303030303) Three - Author 3',
            '[`0404040`](https://github.com/Codertocat/Hello-World/commit/0404040404040404040404040404040404040404) Four - Author 4',
            '[`0505050`](https://github.com/Codertocat/Hello-World/commit/0505050505050505050505050505050505050505) Five - Author 5',
            '... and 2 more commits',
          ].join('\n'),
          title: '[Hello-World:main] 7 new commits',
          url: 'https://github.com/Codertocat/Hello-World/compare/aaaaaaa...bbbbbbb',
        },
      ],
      username: 'GitHub',
    });
  });

  it('announces a forced push with the new head', () => {
    const payload = example('push');
    payload['ref'] = 'refs/heads/feature/x';
    payload['forced'] = true;
    payload['deleted'] = false;
    payload['head_commit'] = commit(9, 'Rewritten');
    expect(embeds(renderCodeHost('push', payload))).toStrictEqual([
      {
        author: CODERTOCAT,
        color: 16563487,
        description: '[Compare changes](https://github.com/Codertocat/Hello-World/compare/simple-tag)',
        title: '[Hello-World] Branch feature/x was force-pushed to `0909090`',
        url: 'https://github.com/Codertocat/Hello-World/compare/simple-tag',
      },
    ]);
  });

  it('ignores deletions and pushes without commits (create/delete announce them)', () => {
    const deleted = example('push');
    deleted['deleted'] = true;
    expect(renderCodeHost('push', deleted)).toEqual({
      kind: 'ignored',
      reason: 'push deleting a ref (announced by the delete event)',
    });
    const tag = example('push');
    tag['commits'] = [];
    tag['deleted'] = false;
    expect(renderCodeHost('push', tag)).toEqual({ kind: 'ignored', reason: 'push without commits' });
  });
});

describe('pull requests and issues', () => {
  it('renders an opened pull request with its author and body', () => {
    expect(embeds(renderCodeHost('pull_request', example('pull_request', 'opened')))).toStrictEqual([
      {
        author: CODERTOCAT,
        color: 626428,
        description: 'This is a pretty simple change that we need to pull into master.',
        title: '[Codertocat/Hello-World] Pull request opened: #2 Update the README ...',
        url: 'https://github.com/Codertocat/Hello-World/pull/2',
      },
    ]);
  });

  it('says merged for a closed pull request that was merged, closed otherwise', () => {
    const payload = example('pull_request', 'closed');
    payload['pull_request']['merged'] = true;
    expect(embeds(renderCodeHost('pull_request', payload))).toStrictEqual([
      {
        author: CODERTOCAT,
        color: 7291585,
        title: '[Codertocat/Hello-World] Pull request merged: #2 Update the README ...',
        url: 'https://github.com/Codertocat/Hello-World/pull/2',
      },
    ]);
    payload['pull_request']['merged'] = false;
    const closed = message(renderCodeHost('pull_request', payload)).embeds[0];
    expect(closed?.title).toBe('[Codertocat/Hello-World] Pull request closed: #2 Update the README ...');
    expect(closed?.color).toBe(0);
  });

  it('renders an opened issue', () => {
    expect(embeds(renderCodeHost('issues', example('issues', 'opened')))).toStrictEqual([
      {
        author: CODERTOCAT,
        color: 15419457,
        description: "It looks like you accidently spelled 'commit' with two 't's.",
        title: '[Codertocat/Hello-World] Issue opened: #1 Spelling error in the REA...',
        url: 'https://github.com/Codertocat/Hello-World/issues/1',
      },
    ]);
  });

  it('labels a comment on an issue "issue" and one on a pull request "pull request"', () => {
    const onIssue = example('issue_comment', 'created');
    expect(embeds(renderCodeHost('issue_comment', onIssue))).toStrictEqual([
      {
        author: CODERTOCAT,
        color: 12585599,
        description: "You are totally right! I'll get this fixed right away.",
        title: '[Codertocat/Hello-World] New comment on issue #1: Spelling error in...',
        url: 'https://github.com/Codertocat/Hello-World/issues/1#issuecomment-492700400',
      },
    ]);
    const onPullRequest = example('issue_comment', 'created');
    onPullRequest['issue']['pull_request'] = { url: 'https://api.github.com/repos/Codertocat/Hello-World/pulls/1' };
    expect(message(renderCodeHost('issue_comment', onPullRequest)).embeds[0]?.title).toBe(
      '[Codertocat/Hello-World] New comment on pull request #1: Spelling e...',
    );
  });

  it('renders a review verdict, keeping the #fragment review URL and ids beyond int32', () => {
    const payload = example('pull_request_review', 'submitted');
    payload['review']['state'] = 'approved';
    payload['review']['body'] = 'Looks good &amp; ships.';
    payload['review']['id'] = 9_007_199_254_740_000;
    payload['repository']['id'] = 3_000_000_000;
    expect(embeds(renderCodeHost('pull_request_review', payload))).toStrictEqual([
      {
        author: CODERTOCAT,
        color: 38912,
        description: 'Looks good & ships.',
        title: '[Codertocat/Hello-World] Pull request approved: #2 Update the READM...',
        url: 'https://github.com/Codertocat/Hello-World/pull/2#pullrequestreview-237895671',
      },
    ]);
    payload['review']['state'] = 'changes_requested';
    expect(message(renderCodeHost('pull_request_review', payload)).embeds[0]).toMatchObject({
      title: '[Codertocat/Hello-World] Changes requested on pull request: #2 Upda...',
      color: 0xfc2929,
    });
  });

  it('ignores a comment-only review without a summary (its review comments post instead)', () => {
    expect(renderCodeHost('pull_request_review', example('pull_request_review', 'submitted'))).toEqual({
      kind: 'ignored',
      reason: 'comment-only review without a body',
    });
  });
});

describe('repository events', () => {
  it('renders a release, branch creation and tag deletion', () => {
    expect(embeds(renderCodeHost('release', example('release', 'published')))).toStrictEqual([
      {
        author: CODERTOCAT,
        title: '[Codertocat/Hello-World] New release published: 0.0.1',
        url: 'https://github.com/Codertocat/Hello-World/releases/tag/0.0.1',
      },
    ]);
    expect(message(renderCodeHost('create', example('create'))).embeds[0]?.title).toMatchInlineSnapshot(
      `"[Codertocat/Hello-World] New tag created: simple-tag"`,
    );
    expect(message(renderCodeHost('delete', example('delete'))).embeds[0]?.title).toMatchInlineSnapshot(
      `"[Codertocat/Hello-World] Tag deleted: simple-tag"`,
    );
  });

  it('announces stars once, through the watch event', () => {
    expect(embeds(renderCodeHost('watch', example('watch', 'started')))).toStrictEqual([
      {
        author: CODERTOCAT,
        title: '[Codertocat/Hello-World] New star added',
        url: 'https://github.com/Codertocat/Hello-World',
      },
    ]);
    expect(renderCodeHost('star', example('star', 'created'))).toEqual({
      kind: 'ignored',
      reason: 'stars are announced by the watch event',
    });
  });

  it('renders a fork and a ping', () => {
    expect(embeds(renderCodeHost('fork', example('fork')))).toStrictEqual([
      {
        author: {
          icon_url: 'https://avatars1.githubusercontent.com/u/38302899?v=4',
          name: 'Octocoders',
          url: 'https://github.com/Octocoders',
        },
        title: '[Codertocat/Hello-World] Fork created: Octocoders/Hello-World',
        url: 'https://github.com/Octocoders/Hello-World',
      },
    ]);
    expect(message(renderCodeHost('ping', example('ping')))).toStrictEqual({
      allowed_mentions: { parse: [] },
      content: '',
      embeds: [
        {
          author: CODERTOCAT,
          description: 'Events: all events\n> Anything added dilutes everything else.',
          title: '[Octocoders/Hello-World] GitHub webhook connected',
          url: 'https://github.com/Octocoders/Hello-World',
        },
      ],
      username: 'GitHub',
    });
  });

  it('renders completed check runs by conclusion and skips skipped ones', () => {
    const payload = example('check_run', 'completed');
    expect(embeds(renderCodeHost('check_run', payload))).toStrictEqual([
      {
        color: 16525609,
        title: '[Hello-World] Octocoders-linter failure on changes',
        url: 'https://github.com/Codertocat/Hello-World/runs/128620228',
      },
    ]);
    payload['check_run']['conclusion'] = 'skipped';
    expect(renderCodeHost('check_run', payload)).toEqual({ kind: 'ignored', reason: 'check_run was skipped' });
  });

  it('renders new discussions and answers', () => {
    expect(embeds(renderCodeHost('discussion', example('discussion', 'created')))).toStrictEqual([
      {
        author: CODERTOCAT,
        color: 15123120,
        description: "We're glad to have you here!",
        title: '[octo-org/octo-repo] New discussion #90: Welcome to discussions!',
        url: 'https://github.com/octo-org/octo-repo/discussions/90',
      },
    ]);
    expect(
      message(renderCodeHost('discussion', example('discussion', 'answered'))).embeds[0]?.title,
    ).toMatchInlineSnapshot(`"[Codertocat/Hello-World] Discussion answered: #4 TEST edit"`);
  });
});

describe('dispatch', () => {
  it('ignores a missing or unknown event header and non-object payloads, whatever the body', () => {
    expect(renderCodeHost(undefined, example('push'))).toEqual({ kind: 'ignored', reason: 'no X-GitHub-Event header' });
    expect(renderCodeHost('workflow_run', example('workflow_run'))).toEqual({
      kind: 'ignored',
      reason: 'event workflow_run is not announced',
    });
    expect(renderCodeHost('push', [1, 2])).toEqual({ kind: 'ignored', reason: 'payload is not a JSON object' });
    expect(renderCodeHost('__proto__', {})).toEqual({ kind: 'ignored', reason: 'event __proto__ is not announced' });
  });

  it('ignores a payload that lacks what its event needs instead of failing', () => {
    expect(renderCodeHost('issues', { action: 'opened', sender: { login: 'x' } })).toEqual({
      kind: 'ignored',
      reason: 'issues payload lacks a usable issue',
    });
  });

  it('cuts a huge body to the limits instead of failing', () => {
    const payload = example('issues', 'opened');
    payload['issue']['title'] = 'T'.repeat(10_000);
    payload['issue']['body'] = 'B'.repeat(100_000);
    const embed = message(renderCodeHost('issues', payload)).embeds[0];
    expect(embed?.title).toHaveLength(70);
    expect(embed?.title?.endsWith('...')).toBe(true);
    expect(embed?.description).toHaveLength(350);
  });
});
