import type { ScenarioResult } from '../../types.ts';
import type { Sample } from './traffic.ts';

/** When the dependency was failing, on the traffic's clock (ms). */
export interface OutageWindow {
  startMs: number;
  endMs: number;
}

export interface OutageBounds {
  /** Every answer, during the outage too, must come within this (ms); past it counts as late. */
  answerMs: number;
  /** After the dependency is back, every request must succeed again within this (ms). */
  recoveryMs: number;
  /**
   * A dropped connection is honest when the scenario kills processes (their requests lose
   * their connection, as after any crash); otherwise it counts as a request never answered.
   */
  droppedAllowed?: boolean;
}

export interface OutageJudgement {
  /** Answers while the dependency was down, by status (`none`: no answer), e.g. `204×310 503×42`. */
  outageStatuses: string;
  /** The longest any request took from the start of the outage on (ms). */
  maxLatencyMs: number;
  /** Requests answered after the bound, or not at all. */
  late: number;
  /** 5xx answers other than 503, and 503s without `Retry-After`: a dependency failure must never be a generic error. */
  serverErrors: number;
  /** Requests whose connection failed before an answer. */
  dropped: number;
  /** From the dependency's return to the end of the last failed request started after it; null when some kind never succeeded again. */
  recoveryMs: number | null;
  problems: string[];
}

/** The statuses each kind of request answers when all is well. */
export type Expected = Map<string, readonly number[]>;

const isSuccess = (sample: Sample, expected: Expected) =>
  typeof sample.status === 'number' && (expected.get(sample.kind)?.includes(sample.status) ?? false);

/** A 5xx other than a 503 that says when to come back. */
const isServerError = (sample: Sample) =>
  typeof sample.status === 'number' && sample.status >= 500 && (sample.status !== 503 || sample.retryAfter === null);

/** `key×count …`, sorted by key: `204×310 503×42`, or by kind `audit-logs×2`. */
function tally(samples: readonly Sample[], key: (sample: Sample) => string): string {
  const counts = new Map<string, number>();
  for (const sample of samples) counts.set(key(sample), (counts.get(key(sample)) ?? 0) + 1);
  return (
    [...counts]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([name, count]) => `${name}×${count}`)
      .join(' ') || 'none'
  );
}

const histogram = (samples: readonly Sample[]) => tally(samples, (sample) => String(sample.status));
const whichKinds = (samples: readonly Sample[]) => tally(samples, (sample) => sample.kind);

/**
 * The issue's verdict on one outage: every answer within its bound (503 allowed, no other 5xx,
 * no hang), and full recovery within the bound once the dependency is back. Requests before the
 * outage must all succeed: otherwise the system was not healthy to begin with.
 */
export function judgeOutage(
  samples: readonly Sample[],
  expected: Expected,
  window: OutageWindow,
  bounds: OutageBounds,
): OutageJudgement {
  const before = samples.filter((sample) => sample.startedAt + sample.latencyMs < window.startMs);
  const during = samples.filter(
    (sample) => sample.startedAt < window.endMs && sample.startedAt + sample.latencyMs >= window.startMs,
  );
  const after = samples.filter((sample) => sample.startedAt >= window.endMs);
  const fromOutage = samples.filter((sample) => sample.startedAt + sample.latencyMs >= window.startMs);

  const dropped = samples.filter((sample) => sample.status === 'dropped');
  const late = samples.filter(
    (sample) =>
      sample.status === 'none' ||
      (sample.status === 'dropped' && !bounds.droppedAllowed) ||
      sample.latencyMs > bounds.answerMs,
  );
  const serverErrors = samples.filter(isServerError);
  const recovered = [...expected.keys()].every((kind) =>
    after.some((sample) => sample.kind === kind && isSuccess(sample, expected)),
  );
  const failedAfter = after.filter((sample) => !isSuccess(sample, expected));
  const recoveryMs = !recovered
    ? null
    : Math.max(0, ...failedAfter.map((sample) => sample.startedAt + sample.latencyMs - window.endMs));
  const maxLatencyMs = Math.max(0, ...fromOutage.map((sample) => sample.latencyMs));

  const problems: string[] = [];
  const failedBefore = before.filter((sample) => !isSuccess(sample, expected));
  if (failedBefore.length > 0)
    problems.push(`${failedBefore.length} requests failed before the fault (${histogram(failedBefore)})`);
  if (late.length > 0) {
    const never = late.filter((sample) => typeof sample.status !== 'number').length;
    problems.push(
      `${late.length} answers later than ${bounds.answerMs} ms, ${never} of them never (${whichKinds(late)})`,
    );
  }
  if (serverErrors.length > 0)
    problems.push(
      `${serverErrors.length} answers 5xx other than a 503 with Retry-After (${tally(serverErrors, (sample) => `${sample.kind} ${sample.status}${sample.status === 503 ? ' without Retry-After' : ''}`)})`,
    );
  if (recoveryMs === null) problems.push('not every kind of request succeeded again after the dependency returned');
  else if (recoveryMs > bounds.recoveryMs) {
    const slow = failedAfter.filter((sample) => sample.startedAt + sample.latencyMs - window.endMs > bounds.recoveryMs);
    problems.push(
      `recovered ${Math.round(recoveryMs)} ms after the dependency returned (bound ${bounds.recoveryMs} ms; failing past it: ${tally(slow, (sample) => `${sample.kind} ${sample.status}`)})`,
    );
  }
  return {
    outageStatuses: histogram(during),
    maxLatencyMs,
    late: late.length,
    serverErrors: serverErrors.length,
    dropped: dropped.length,
    recoveryMs,
    problems,
  };
}

/** A duration for the report, or `never` for one that did not end. */
export const msOrNever = (ms: number | null): string => (ms === null ? 'never' : `${Math.round(ms)} ms`);

/** The judgement's figures in report order; `statusesAs` names the row of answers while faulted. */
export function judgementFigures(
  requests: number,
  judgement: OutageJudgement,
  statusesAs: string,
): ScenarioResult['figures'] {
  return [
    ['requests', requests],
    [statusesAs, judgement.outageStatuses],
    ['max latency', `${Math.round(judgement.maxLatencyMs)} ms`],
    ['over bound', judgement.late],
    ['5xx not 503', judgement.serverErrors],
    ['recovery', msOrNever(judgement.recoveryMs)],
  ];
}
