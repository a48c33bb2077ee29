import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROOT, trackedFiles } from './support/source-files.ts';

/**
 * A clone must explain itself: no comment, README or script may send the reader to a document
 * outside the repository. Decisions are recorded in docs/decisions.md and linked by anchor
 * (`docs/decisions.md#rate-limits`), never cited by a section number of a document the clone
 * does not have.
 */

const SECTION = '\u00a7';

/** Text that points outside the repository (compared case-insensitively). */
const OUTSIDE = ['../' + 'shared', 'shared/' + 'spec', 'shared/' + 'reference', 'interface' + '.md'];

/** Section citations: `decisions N`, `reference N.M`, `(N)` … with the section sign; RFC sections are fine. */
const CITATION = new RegExp(`(?<!RFC \\d+ )${SECTION}\\s?\\d`, 'g');

/**
 * Landed migrations that cite the former section numbers. The migration runner checksums every
 * applied file, so these cannot be edited without breaking existing databases; their numbers are
 * mapped in docs/decisions.md#former-section-numbers. They are exempt from the section-number
 * check only: a path outside the repository is still a finding, and a new migration cites anchors.
 */
const LANDED_MIGRATIONS = new Set(
  [
    '0001_domain.sql',
    '0002_admin.sql',
    '0003_jobs.sql',
    '0004_audit_log_target_id.sql',
    '0011_webhook_delivery_keys_on_messages.sql',
  ].map((name) => `packages/db/migrations/${name}`),
);

interface Finding {
  where: string;
  text: string;
}

function findingsIn(path: string): Finding[] {
  const file = `${ROOT}/${path}`;
  if (!existsSync(file)) return [];
  const bytes = readFileSync(file);
  if (bytes.includes(0)) return [];
  const findings: Finding[] = [];
  bytes
    .toString('utf8')
    .split('\n')
    .forEach((line, index) => {
      const lower = line.toLowerCase();
      const outside = OUTSIDE.some((needle) => lower.includes(needle));
      const cited = !LANDED_MIGRATIONS.has(path) && line.match(CITATION) !== null;
      if (outside || cited) findings.push({ where: `${path}:${index + 1}`, text: line.trim().slice(0, 160) });
    });
  return findings;
}

describe('the repository is self-contained', () => {
  it('has no file citing a document outside the repository', () => {
    const findings = trackedFiles().flatMap(findingsIn);
    const report = findings.map((finding) => `${finding.where}: ${finding.text}`).join('\n');
    expect(findings.length, `Cite docs/decisions.md#<anchor> instead of an outside document:\n${report}`).toBe(0);
  });
});
