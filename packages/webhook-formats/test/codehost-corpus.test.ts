import { describe, expect, it } from 'vitest';
import {
  codeHostBodySchema,
  codeHostReadPart,
  findLimitViolations,
  parseFormEncodedGitHubBody,
  renderCodeHost,
} from '../src/index.ts';
import { corpus, type ExamplePayload } from './support/corpus.ts';

const examples = corpus();

/**
 * Event/action pairs that must post for every real example (push: when it carries commits and
 * deletes nothing; check runs and suites: when not skipped).
 */
function mustPost(event: string, payload: ExamplePayload): boolean {
  const action = payload['action'];
  switch (event) {
    case 'push':
      return (
        !payload['deleted'] && (payload['forced'] ? Boolean(payload['head_commit']) : payload['commits']?.length > 0)
      );
    case 'create':
    case 'delete':
      return payload['ref_type'] === 'branch' || payload['ref_type'] === 'tag';
    case 'fork':
    case 'public':
    case 'ping':
      return true;
    case 'issues':
      return ['opened', 'closed', 'reopened'].includes(action);
    case 'pull_request':
      return ['opened', 'closed', 'reopened', 'ready_for_review'].includes(action);
    case 'issue_comment':
    case 'pull_request_review_comment':
    case 'commit_comment':
    case 'discussion_comment':
      return action === 'created';
    case 'pull_request_review':
      return action === 'submitted' && (payload['review']?.state !== 'commented' || Boolean(payload['review']?.body));
    case 'discussion':
      return action === 'created' || action === 'answered';
    case 'member':
      return action === 'added';
    case 'release':
      return action === 'published';
    case 'watch':
      return action === 'started';
    case 'repository':
      return action === 'created';
    case 'check_run':
      return action === 'completed' && payload['check_run']?.conclusion !== 'skipped';
    case 'check_suite':
      return action === 'completed' && payload['check_suite']?.conclusion !== 'skipped';
    default:
      return false;
  }
}

describe('the whole @octokit/webhooks-examples corpus', () => {
  it('has the payloads this test expects', () => {
    expect(examples.length).toBeGreaterThan(700);
    expect(new Set(examples.map((entry) => entry.event)).size).toBeGreaterThan(55);
  });

  it('passes the gateway body schema (a 2xx for every real payload)', () => {
    const rejected = examples.filter((entry) => !codeHostBodySchema.safeParse(entry.payload).success);
    expect(rejected.map((entry) => `${entry.source} ${entry.event}#${entry.index}`)).toEqual([]);
  });

  it('renders a message within the limits, or an ignored event, for every example', () => {
    let messages = 0;
    for (const entry of examples) {
      const outcome = renderCodeHost(entry.event, entry.payload);
      const label = `${entry.source} ${entry.event}#${entry.index}`;
      if (outcome.kind === 'message') {
        messages += 1;
        expect(findLimitViolations(outcome.message), label).toEqual([]);
        expect(outcome.message.embeds, label).toHaveLength(1);
        expect(outcome.message.allowed_mentions, label).toEqual({ parse: [] });
      } else {
        expect(outcome.kind, label).toBe('ignored');
        expect(outcome.reason, label).not.toMatch(/lacks/);
      }
    }
    expect(messages).toBeGreaterThan(150);
  });

  it('posts for every example of an announced event and action', () => {
    const missing = examples
      .filter((entry) => mustPost(entry.event, entry.payload))
      .filter((entry) => renderCodeHost(entry.event, entry.payload).kind !== 'message')
      .map((entry) => `${entry.source} ${entry.event}#${entry.index}`);
    expect(missing).toEqual([]);
  });

  it('posts nothing for events that are not announced', () => {
    const posted = examples
      .filter((entry) => !mustPost(entry.event, entry.payload))
      .filter((entry) => renderCodeHost(entry.event, entry.payload).kind === 'message')
      .map((entry) => `${entry.source} ${entry.event}#${entry.index}`);
    expect(posted).toEqual([]);
  });

  it('renders form-encoded deliveries exactly like JSON ones', () => {
    for (const entry of examples.filter((candidate) => candidate.source === 'api.github.com')) {
      const raw = new URLSearchParams({ payload: JSON.stringify(entry.payload) }).toString();
      const decoded = parseFormEncodedGitHubBody(new URLSearchParams(raw));
      expect(decoded.ok).toBe(true);
      if (!decoded.ok) continue;
      expect(renderCodeHost(entry.event, decoded.payload)).toEqual(renderCodeHost(entry.event, entry.payload));
    }
  });

  it('renders the same outcome from the part it reads (after a JSON round trip) as from the whole payload', () => {
    const roundTrip = (value: unknown) => JSON.parse(JSON.stringify(value)) as unknown;
    let bytesWhole = 0;
    let bytesPart = 0;
    for (const entry of examples) {
      const part = roundTrip(codeHostReadPart(entry.event, entry.payload));
      const label = `${entry.source} ${entry.event}#${entry.index}`;
      expect(renderCodeHost(entry.event, part), label).toEqual(renderCodeHost(entry.event, entry.payload));
      bytesWhole += JSON.stringify(entry.payload).length;
      bytesPart += JSON.stringify(part).length;
    }
    // The point of the part: most of a real payload is never read.
    expect(bytesPart).toBeLessThan(bytesWhole / 5);
  });

  it('renders the same outcome from the part of a payload whose keys have the wrong type', () => {
    const wrongValues: unknown[] = [0, 'text', null, [], {}];
    for (const entry of examples.filter((candidate) => candidate.source === 'api.github.com')) {
      for (const key of Object.keys(entry.payload)) {
        for (const wrong of wrongValues) {
          const payload = { ...entry.payload, [key]: wrong };
          const part = JSON.parse(JSON.stringify(codeHostReadPart(entry.event, payload))) as unknown;
          expect(
            renderCodeHost(entry.event, part),
            `${entry.event}#${entry.index} ${key}=${JSON.stringify(wrong)}`,
          ).toEqual(renderCodeHost(entry.event, payload));
        }
      }
    }
  });

  it('reads nothing of events it never announces, and keeps what is not an object', () => {
    expect(codeHostReadPart('workflow_run', { workflow_run: { id: 1 } })).toEqual({});
    expect(codeHostReadPart(undefined, { ref: 'x' })).toEqual({});
    expect(codeHostReadPart('push', [1, 2])).toEqual([1, 2]);
  });
});
