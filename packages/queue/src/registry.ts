import type { AnyJobContract, JobContract, QueueName } from '@switchboard/contracts';
import type { Logger } from '@switchboard/logger';

/** What a handler gets besides its payload. */
export interface JobContext {
  jobId: string;
  jobName: string;
  /** Failed attempts so far: 0 on the first run. */
  attemptsMade: number;
  /** Aborted when the worker gives up on the job (shutdown timeout); stop early if you can. */
  signal: AbortSignal;
  /** Carries the queue, job name and job id already. */
  logger: Logger;
}

/**
 * Handles one job. Must be idempotent: a job can run again after a crash, a stall or a
 * shutdown timeout. Its return value is stored with the job (keep it small and JSON).
 */
export type JobHandler<Payload> = (payload: Payload, context: JobContext) => Promise<unknown>;

type PayloadOf<Contract> = Contract extends JobContract<infer Payload, infer _Input, string> ? Payload : never;

/** Exactly one handler per contract, keyed by job name, typed by the contract's payload. */
export type HandlersFor<Contracts extends readonly AnyJobContract[]> = {
  [Contract in Contracts[number] as Contract['name']]: JobHandler<PayloadOf<Contract>>;
};

/**
 * Runs once when a job has failed for good (its last attempt, an unrecoverable error, or too
 * many stalls), with the payload and a short reason; e.g. marks the job's row `failed`. It may
 * run again if the worker dies while running it, so it must be idempotent too.
 */
export type FinalFailureHandler<Payload> = (payload: Payload, reason: string) => Promise<void>;

/** At most one final-failure handler per contract, keyed by job name. */
export type FinalFailureHandlersFor<Contracts extends readonly AnyJobContract[]> = {
  [Contract in Contracts[number] as Contract['name']]?: FinalFailureHandler<PayloadOf<Contract>>;
};

export interface Registration {
  contract: AnyJobContract;
  handler: JobHandler<unknown>;
}

/**
 * Pairs contracts with handlers, or throws: a worker that cannot handle a job it owns (or
 * has a handler for a job nobody enqueues on its queue) must not start.
 */
export function registerHandlers(
  queue: QueueName,
  contracts: readonly AnyJobContract[],
  handlers: Record<string, unknown>,
): Map<string, Registration> {
  const problems: string[] = [];
  const registry = new Map<string, Registration>();
  for (const contract of contracts) {
    const handler = handlers[contract.name];
    if (contract.queue !== queue) problems.push(`job "${contract.name}" belongs to queue "${contract.queue}"`);
    else if (registry.has(contract.name)) problems.push(`job "${contract.name}" is listed twice`);
    else if (typeof handler !== 'function') problems.push(`job "${contract.name}" has no handler`);
    else registry.set(contract.name, { contract, handler: handler as JobHandler<unknown> });
  }
  for (const name of Object.keys(handlers)) {
    if (!contracts.some((contract) => contract.name === name)) problems.push(`handler "${name}" has no job contract`);
  }
  if (contracts.length === 0) problems.push('no job contracts given');
  if (problems.length > 0) {
    throw new Error(`Worker for queue "${queue}" refuses to start: ${problems.join('; ')}`);
  }
  return registry;
}
