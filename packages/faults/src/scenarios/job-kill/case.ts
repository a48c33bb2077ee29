import type { Pool } from '@switchboard/db';
import type { SnowflakeGenerator } from '@switchboard/snowflake';
import type { Storage } from '@switchboard/storage';
import { call, type Answer } from '@switchboard/testkit/http';
import type { SupervisedWorker } from '../../processes.ts';

/** What one job's case gets: the scenario's stores, a gateway that answers 202 at once, an admin key. */
export interface CaseContext {
  pool: Pool;
  storage: Storage;
  gatewayUrl: string;
  adminKey: string;
  ids: SnowflakeGenerator;
  /** The case's worker, to SIGKILL mid-job and restart. */
  worker: SupervisedWorker;
}

/** How a case came out: a few figures and why it failed (empty when it passed). */
export interface CaseOutcome {
  figures: string;
  problems: string[];
}

/** One job kind killed mid-job: which worker runs it, with what, and how its run is judged. */
export interface JobKillCase {
  /** `bulk`, `purge`, `archive`: prefixes the case's figures and problems. */
  name: string;
  /** The worker service (`services/<worker>`). */
  worker: string;
  workerEnv?: Record<string, string>;
  run(context: CaseContext): Promise<CaseOutcome>;
}

export function adminRequest(context: CaseContext, method: string, path: string, body?: unknown): Promise<Answer> {
  return call(method, `${context.gatewayUrl}${path}`, {
    token: context.adminKey,
    scheme: 'Admin',
    body,
    timeoutMs: 30_000,
  });
}

/** `problem` when `holds` is false: the cases list their checks as data. */
export function check(holds: boolean, problem: string): string[] {
  return holds ? [] : [problem];
}

/** Audit entries about `targetId`: a job run twice would have written its entry twice. */
export async function auditEntries(pool: Pool, targetId: string): Promise<number> {
  const { rows } = await pool.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_logs WHERE target_id = $1', [
    targetId,
  ]);
  return rows[0]!.n;
}
