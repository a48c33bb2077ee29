import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { commentsOf, ROOT, trackedFiles } from './support/source-files.ts';

/**
 * Comments say why, not how fast. A measured figure (CPU time per request, megabytes promoted,
 * a share of a profile, requests a second, how many rounds, a speed-up) belongs to the machine
 * and the day it was taken and goes stale while the reason holds, so it is recorded in
 * packages/bench/README.md#measurements-behind-the-code or a docs/decisions.md record, which the
 * comment may name. A limit or default stated as a rule ("bodies up to 25 MiB", "timeout 5 s")
 * is not a measurement, and the patterns below leave it alone. The examples of both are in the
 * second test.
 */

const NUMBER = String.raw`~?\d[\d,]*(?:\.\d+)?`;
const RANGE = String.raw`${NUMBER}(?:\s?[-–]\s?${NUMBER})?`;
const UNIT = '(?:ns|µs|us|ms|s|seconds?|minutes?|%|[KMG]i?B|x|×)';
const COMPARED = '(?:faster|slower|cheaper|costlier|dearer|quicker|more|less|fewer|lower|higher|smaller|larger)';
const COUNT = String.raw`(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d+)`;
const FRACTION = '(?:half|third|quarter|fifth|tenth)';
const OWNER = '(?:the|its|their|a|an|one)';

/** The ways a comment reports what was measured; each is matched across the comment's lines. */
const MEASUREMENTS: ReadonlyArray<{ kind: string; source: string }> = [
  {
    kind: 'X against Y',
    source: String.raw`\d[\d,.]*(?:\s+[^\s\d]+){0,5}\s+against\s+[~+-]?\d[\d,.]*(?:\s?${UNIT}(?![\w/]))?`,
  },
  {
    kind: 'X → Y',
    source: String.raw`${NUMBER}\s?${UNIT}?\s?(?:→|->)\s?${RANGE}\s?${UNIT}(?![\w/])|\d\.\d+\s?(?:→|->)\s?~?\d`,
  },
  {
    kind: 'from X to Y',
    source: String.raw`\bfrom\s+(?:about\s+)?${RANGE}\s?${UNIT}?\s+to\s+(?:about\s+)?${RANGE}\s?${UNIT}(?![\w/])`,
  },
  {
    kind: 'N rounds',
    source: String.raw`\b${COUNT}\s+(?:alternating\s+|fresh\s+)?(?:rounds|runs|pairs)(?=\s*[),.;:]|\s+(?:each|of|in|apiece|alternating)\b)`,
  },
  {
    kind: 'N of M runs',
    source: String.raw`\b\d+\s+(?:of|in)\s+\d+\s+(?:[\w-]+\s+){0,3}?(?:runs|rounds|uploads|requests|attempts|floods|tries)\b`,
  },
  {
    kind: 'N% of a cost',
    source: String.raw`${NUMBER}\s?%\s+(?:of\s+(?:${OWNER}\s+)?(?:[\w'-]+\s+){0,3}?(?:CPU|time|samples|memory|machine|requests?)\b|${COMPARED}\b)|[-+±]\d+(?:\.\d+)?\s?%|\bby\s+(?:up\s+to\s+)?${RANGE}\s?%`,
  },
  {
    kind: 'a fraction of a cost',
    source: String.raw`\b(?:a|one)\s+${FRACTION}\s+(?:of\s+${OWNER}\s+(?:[\w'-]+\s+){0,2}?(?:CPU|time|cost|samples)\b|${COMPARED}\b)|\bby\s+(?:a|one)\s+${FRACTION}\b`,
  },
  {
    kind: 'N times faster',
    source: String.raw`(?:\d+(?:\.\d+)?\s?[x×]|\b${COUNT}\s+times)\s+(?:${COMPARED}|the\s+(?:[\w'-]+\s+)?(?:CPU|rate|throughput|memory|time)|as\s+(?:fast|slow|much|many))\b|\b(?:twice|thrice)\s+as\s+(?:much|many|fast|slow)\b`,
  },
  {
    kind: 'halves a cost',
    source: String.raw`\b(?:halve[sd]?|halving|doubl(?:e[sd]?|ing)|triple[sd]?)\s+(?:[\w'-]+\s+){0,3}?(?:CPU|time|latency|p\d\d|throughput|cost|rate)\b`,
  },
  {
    kind: 'took N',
    source: String.raw`\b(?:(?:took|takes|spent|spends|answered|drained|cost|costs|costing)\s+(?:(?:about|around|roughly|only|a\s+median(?:\s+of)?|in)\s+){0,2}|peaked\s+at\s+)${RANGE}\s?${UNIT}(?![\w/])`,
  },
  {
    kind: 'a measured range',
    source: String.raw`\b\d[\d,.]*\s?[-–]\s?\d[\d,.]*\s?(?:ns|µs|us|ms|[KMG]i?B|%)(?![\w/])`,
  },
  { kind: 'a percentile', source: String.raw`\b(?:p\d\d|medians?)\b(?:\s+(?:of|at|was|is|read))?\s+~?\d` },
  {
    kind: 'CPU time',
    source: String.raw`\d[\d,.]*\s?(?:ns|µs|us|ms|s)\s+of\s+(?:[\w']+\s+){0,2}?(?:CPU|core)\b|\d\s?(?:ns|µs|us)\s+(?:for|per|a|an|each)\b`,
  },
  {
    kind: 'memory taken',
    source: String.raw`\d\s?[KMG]i?B\s+(?:(?:of\s+)?[\w'-]+\s+){0,3}?promoted\b|\d\s?[KMG]i?B\s+of\s+(?:[\w'-]+\s+){0,2}?(?:memory|RSS|heap)\b`,
  },
  {
    kind: 'a rate',
    source: String.raw`\d[\d,.]*\s?k?\s?(?:req|requests|ops|op|checks|pushes|messages|deliveries|jobs)/s\b|\b[KMG]i?B/s\b`,
  },
  { kind: 'measured N', source: String.raw`\bmeasured\b(?:[^.;]|\.\d){0,80}?\d[\d,.]*\s?${UNIT}(?![\w/])` },
  { kind: 'N here', source: String.raw`\d[\d,.]*\s?${UNIT}\s+(?:here|on this machine)\b` },
  {
    kind: 'a ratio or a duration in words',
    source: String.raw`~\s?\d+(?:\.\d+)?:1\b|\b(?:about|around|roughly|some)\s+(?:half\s+a|a\s+${FRACTION}\s+of\s+a)\s+(?:second|minute)\b`,
  },
];

/**
 * Applied migrations whose comments quote the measurement behind them. The migration runner
 * checksums every applied file, so they cannot be edited; their figures are also in
 * packages/bench/README.md#webhook-worker. A new migration names the README instead.
 */
const LANDED_MIGRATIONS = new Set(
  ['0011_webhook_delivery_keys_on_messages.sql', '0012_messages_guild_without_foreign_key.sql'].map(
    (name) => `packages/db/migrations/${name}`,
  ),
);

interface Finding {
  line: number;
  kind: string;
  text: string;
}

/** What reads as a measurement in the comments of `text` (the source of `path`), by line. */
function measurementsIn(path: string, text: string): Finding[] {
  const findings: Finding[] = [];
  for (const comment of commentsOf(path, text)) {
    // One string per comment, its lines joined, so a figure broken across lines is still one.
    const lineStarts: number[] = [];
    let joined = '';
    for (const line of comment.lines) {
      lineStarts.push(joined.length);
      joined += `${line.replace(/^\s*\*?\s?/, '')} `;
    }
    for (const { kind, source } of MEASUREMENTS) {
      for (const match of joined.matchAll(new RegExp(source, 'gi'))) {
        const offset = lineStarts.findLastIndex((start) => start <= match.index);
        findings.push({ line: comment.line + offset, kind, text: match[0] });
      }
    }
  }
  return findings.sort((a, b) => a.line - b.line);
}

function findingsInTree(): string[] {
  return trackedFiles()
    .filter((path) => !LANDED_MIGRATIONS.has(path) && existsSync(`${ROOT}${path}`))
    .flatMap((path) =>
      measurementsIn(path, readFileSync(`${ROOT}${path}`, 'utf8')).map(
        ({ line, kind, text }) => `${path}:${line}: ${kind}: "${text}"`,
      ),
    );
}

describe('source comments', () => {
  it('quote no measurement figures', () => {
    const findings = findingsInTree();
    expect(
      findings.length,
      `Measured figures in comments: move each to packages/bench/README.md#measurements-behind-the-code (or a docs/decisions.md record) and let the comment give the reason and name it:\n${findings.join('\n')}`,
    ).toBe(0);
  });

  it('are told from limits by the patterns', () => {
    const flagged = (comment: string) => measurementsIn('example.ts', comment).map(({ kind }) => kind);
    const measured = [
      '// A ban check cost 0.0905 ms of CPU against 0.1012 and 0.1073 (18 rounds).',
      '/** Batching cuts p99 from 41 ms to 12 ms. */',
      '// The whole export takes 2.9 s here.',
      '// Sharing one insert halves the CPU per delivery.',
      '/* Native CRC-32 (3x faster) is used. */',
      '// The reader moves 480 MB/s.',
      "/**\n * It was 14.5% of the worker's CPU\n * samples.\n */",
      '// Pages of 10,000 made the archive about a tenth faster; 62-129 ms at worst.',
    ];
    for (const comment of measured) expect(flagged(comment), comment).not.toEqual([]);
    const rules = [
      '/** Bodies up to 25 MiB; larger ones are 413. */',
      '// Timeout 5 s, then 1 s, 2 s, 4 s, 8 s of backoff.',
      '/** GCRA refills one request per window/limit: 2 s for 30 per minute. */',
      '// Node 24 runs the TypeScript sources directly.',
      '/** failure budget → 401 → 403 MISSING_PERMISSIONS → JSON body (1 MiB). */',
      '// 1M single addresses and 100k ranges (10 % IPv6); `?limit` 1–100, default 50.',
      '/** With a process per core each sees half the load and takes twice as long to warm up. */',
    ];
    for (const comment of rules) expect(flagged(comment), comment).toEqual([]);
  });

  it('are found outside strings, regular expressions and templates', () => {
    const source = [
      "const url = 'http://example.test'; // took 15 s",
      'const pattern = /["`]\\/\\//g; /* 5% cheaper */',
      // A template literal whose `${…}` holds a comment (written in two pieces, for the linter).
      'const text = `// 9 rounds, $' + '{value /* 8 rounds, */} /* 7 rounds, */`;',
      "const sql = '-- 6 rounds,';",
    ].join('\n');
    expect(measurementsIn('example.ts', source)).toEqual([
      { line: 1, kind: 'took N', text: 'took 15 s' },
      { line: 2, kind: 'N% of a cost', text: '5% cheaper' },
      { line: 3, kind: 'N rounds', text: '8 rounds' },
    ]);
  });
});
