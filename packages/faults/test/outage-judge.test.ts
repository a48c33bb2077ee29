import { describe, expect, it } from 'vitest';
import { judgeOutage } from '../src/scenarios/outage/judge.ts';
import type { Sample } from '../src/scenarios/outage/traffic.ts';

const expected = new Map([
  ['execute', [204]],
  ['audit-logs', [200]],
]);
const window = { startMs: 1_000, endMs: 2_000 };
const bounds = { answerMs: 500, recoveryMs: 300 };
const sample = (kind: string, startedAt: number, status: Sample['status'], latencyMs = 10): Sample => ({
  kind,
  startedAt,
  latencyMs,
  status,
  retryAfter: status === 503 ? '1' : null,
});

describe('outage verdict', () => {
  it('passes quick 503s during the outage and a recovery within the bound', () => {
    const judgement = judgeOutage(
      [
        sample('execute', 0, 204),
        sample('execute', 1_100, 503),
        sample('audit-logs', 1_200, 200),
        sample('execute', 2_050, 503),
        sample('execute', 2_200, 204),
        sample('audit-logs', 2_250, 200),
      ],
      expected,
      window,
      bounds,
    );
    expect(judgement.problems).toEqual([]);
    expect(judgement.outageStatuses).toBe('200×1 503×1');
    expect(judgement.recoveryMs).toBe(60);
  });

  it('fails on a hang, a 500, a failure before the fault and a slow recovery', () => {
    const judgement = judgeOutage(
      [
        sample('audit-logs', 0, 500),
        sample('execute', 1_100, 'none', 900),
        sample('audit-logs', 1_200, 500),
        sample('execute', 2_100, 503, 400),
        sample('execute', 2_600, 204),
        sample('audit-logs', 2_600, 200),
      ],
      expected,
      window,
      bounds,
    );
    expect(judgement.late).toBe(1);
    expect(judgement.serverErrors).toBe(2);
    expect(judgement.recoveryMs).toBe(500);
    expect(judgement.problems).toHaveLength(4);
  });

  it('counts a 503 without Retry-After as a server error, and a dropped connection as unanswered unless allowed', () => {
    const samples = [
      sample('execute', 0, 204),
      { ...sample('execute', 1_100, 503), retryAfter: null },
      sample('audit-logs', 1_200, 'dropped', 5),
      sample('execute', 2_050, 204),
      sample('audit-logs', 2_050, 200),
    ];
    const strict = judgeOutage(samples, expected, window, bounds);
    expect([strict.serverErrors, strict.late, strict.dropped]).toEqual([1, 1, 1]);
    const killing = judgeOutage(samples, expected, window, { ...bounds, droppedAllowed: true });
    expect([killing.serverErrors, killing.late, killing.dropped]).toEqual([1, 0, 1]);
    expect(killing.problems).toEqual([
      '1 answers 5xx other than a 503 with Retry-After (execute 503 without Retry-After×1)',
    ]);
  });

  it('says when a kind never succeeds again', () => {
    const judgement = judgeOutage(
      [sample('execute', 2_100, 204), sample('audit-logs', 2_100, 503)],
      expected,
      window,
      bounds,
    );
    expect(judgement.recoveryMs).toBeNull();
    expect(judgement.problems).toEqual(['not every kind of request succeeded again after the dependency returned']);
  });
});
