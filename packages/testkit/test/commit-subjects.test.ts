import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The commit rule of CONTRIBUTING.md, from the whole-tree reformat on (the history before it
 * is as it was written): a subject of at most 72 characters, then a blank line before any body,
 * so that `git log --oneline` reads as a table of contents.
 */

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
/** "Format the whole tree with Biome": the first commit the rule applies to. */
const RULE_STARTS_AT = 'f50bc1db1e5f6a95ab514c84a51b0ca6249c4942';
const MAX_SUBJECT = 72;

const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' });

function hasCommit(sha: string): boolean {
  try {
    git('cat-file', '-e', `${sha}^{commit}`);
    return true;
  } catch {
    return false;
  }
}

describe('commit messages', () => {
  // A source archive or a shallow clone carries no history to check.
  it.runIf(hasCommit(RULE_STARTS_AT))('have short subjects and a blank line before the body', () => {
    const messages = git('log', '--format=%H%x00%B%x01', `${RULE_STARTS_AT}^..HEAD`)
      .split('\u0001')
      .map((entry) => entry.trim())
      .filter((entry) => entry.length > 0);
    const findings = messages.flatMap((entry) => {
      const [sha, message = ''] = entry.split('\u0000');
      const [subject = '', second] = message.split('\n');
      const problems: string[] = [];
      if (subject.length > MAX_SUBJECT) problems.push(`subject of ${subject.length} characters`);
      if (second !== undefined && second.trim() !== '') problems.push('no blank line after the subject');
      return problems.map((problem) => `${sha!.slice(0, 8)} ${problem}: ${subject}`);
    });
    expect(messages.length).toBeGreaterThan(0);
    expect(findings).toEqual([]);
  });
});
