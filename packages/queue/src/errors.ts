import type { z } from 'zod';

export interface PayloadProblem {
  path: string;
  message: string;
  code: string;
}

/** Where and why a payload is invalid; zod messages describe the rule, never the value. */
export function payloadProblems(error: z.ZodError): PayloadProblem[] {
  return error.issues.map((issue) => ({
    path: issue.path.length > 0 ? issue.path.join('.') : 'root',
    message: issue.message,
    code: issue.code,
  }));
}

export function describeProblems(problems: PayloadProblem[]): string {
  return problems.map((problem) => `${problem.path}: ${problem.message}`).join('; ');
}

/** A producer tried to enqueue a payload its contract rejects; nothing was added. */
export class InvalidJobPayloadError extends Error {
  override readonly name = 'InvalidJobPayloadError';
  readonly jobName: string;
  readonly problems: PayloadProblem[];

  constructor(jobName: string, error: z.ZodError) {
    const problems = payloadProblems(error);
    super(`Invalid payload for job "${jobName}": ${describeProblems(problems)}`);
    this.jobName = jobName;
    this.problems = problems;
  }
}

/** Redis is not reachable right now; the job was not added. */
export class QueueUnavailableError extends Error {
  override readonly name = 'QueueUnavailableError';
  readonly queue: string;
  /**
   * The add was sent but no answer came (the connection dropped, the command timed out):
   * Redis may have carried it out, so the job may exist. False when nothing was sent.
   */
  readonly jobMayExist: boolean;

  constructor(queue: string, cause?: unknown, options: { jobMayExist?: boolean; reason?: string } = {}) {
    super(`Queue "${queue}" is unavailable: ${options.reason ?? 'Redis is not connected'}`, { cause });
    this.queue = queue;
    this.jobMayExist = options.jobMayExist ?? false;
  }
}

/** Redis added the jobs but fewer replicas than required confirmed them within the bound. */
export class ReplicationShortfallError extends Error {
  override readonly name = 'ReplicationShortfallError';
  readonly required: number;
  readonly confirmed: number;

  constructor(required: number, confirmed: number) {
    super(`${confirmed} of ${required} Redis replicas confirmed the enqueue in time`);
    this.required = required;
    this.confirmed = confirmed;
  }
}
