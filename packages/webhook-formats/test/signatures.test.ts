import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifyGitHubSignature, verifySentrySignature } from '../src/index.ts';

const secret = "It's a Secret to Everybody";
const body = Buffer.from('Hello, World!');
// GitHub's documented test vector for this secret and body.
const githubHeader = 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17';

describe('verifyGitHubSignature', () => {
  it("accepts GitHub's documented example", () => {
    expect(verifyGitHubSignature(secret, body, githubHeader)).toBe(true);
    expect(verifyGitHubSignature(secret, body, githubHeader.toUpperCase().replace('SHA256=', 'sha256='))).toBe(true);
  });

  it('refuses another body, another secret, or a malformed or missing header', () => {
    expect(verifyGitHubSignature(secret, Buffer.from('Hello, World?'), githubHeader)).toBe(false);
    expect(verifyGitHubSignature('other', body, githubHeader)).toBe(false);
    for (const header of [
      undefined,
      '',
      'sha256=',
      'sha1=757107ea0eb2509fc211221cce984b8a37570b6d',
      githubHeader.slice(0, -2),
      `${githubHeader}00`,
      githubHeader.replace('7571', 'zz71'),
    ]) {
      expect(verifyGitHubSignature(secret, body, header)).toBe(false);
    }
  });
});

describe('verifySentrySignature', () => {
  const raw = Buffer.from('{"action":"created","data":{}}');
  const digest = createHmac('sha256', 'client-secret').update(raw).digest('hex');

  it('accepts the hex HMAC-SHA256 of the raw body', () => {
    expect(verifySentrySignature('client-secret', raw, digest)).toBe(true);
  });

  it('refuses a re-serialised body, a wrong secret and malformed headers', () => {
    expect(verifySentrySignature('client-secret', Buffer.from('{"action": "created", "data": {}}'), digest)).toBe(
      false,
    );
    expect(verifySentrySignature('wrong', raw, digest)).toBe(false);
    for (const header of [undefined, '', `sha256=${digest}`, digest.slice(1), 'x'.repeat(64)]) {
      expect(verifySentrySignature('client-secret', raw, header)).toBe(false);
    }
  });
});
