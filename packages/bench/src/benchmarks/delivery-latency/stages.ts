import type { Queue } from 'bullmq';
import { COMPLETED_JOB_RETENTION } from '@switchboard/contracts';
import { snowflakeTimestamp } from '@switchboard/snowflake';
import { latencySummary } from '../../measure.ts';

/** When each stored message's MESSAGE_CREATE entry was appended (its entry id's ms), by message id. */
export type StoredAt = ReadonlyMap<string, number>;

/**
 * The three stages of accepted → stored, each from clocks of this machine: the snowflake (the
 * gateway accepts), the job's `timestamp` (the gateway's add begins, after the webhook lookup),
 * its `processedOn` (the worker takes it), the entry id (the row is committed and announced).
 */
const STAGES = [
  ['accepted → enqueued', (times: JobTimes) => times.enqueued - times.accepted],
  ['enqueued → taken', (times: JobTimes) => times.taken - times.enqueued],
  ['taken → stored', (times: JobTimes) => times.stored - times.taken],
] as const;

interface JobTimes {
  accepted: number;
  enqueued: number;
  taken: number;
  stored: number;
}

/**
 * Where accepted → stored goes, for the deliveries whose jobs BullMQ still keeps (the last
 * COMPLETED_JOB_RETENTION.count completed: the end of the phase just run), one note line.
 * Read after the load, from what the processes recorded anyway, so it adds nothing to it.
 */
export async function stageBreakdown(queue: Queue, storedAt: StoredAt): Promise<string> {
  const jobs = await queue.getJobs(['completed'], 0, COMPLETED_JOB_RETENTION.count - 1);
  const times: JobTimes[] = [];
  for (const job of jobs) {
    const messageId = (job.data as { messageId?: unknown }).messageId;
    const stored = typeof messageId === 'string' ? storedAt.get(messageId) : undefined;
    if (stored === undefined || job.processedOn === undefined) continue;
    times.push({
      accepted: snowflakeTimestamp(messageId as string).getTime(),
      enqueued: job.timestamp,
      taken: job.processedOn,
      stored,
    });
  }
  const stages = STAGES.map(([name, span]) => {
    const { p50, p99 } = latencySummary(times.map(span));
    return `${name} p50 ${p50} / p99 ${p99}`;
  });
  return `${times.length} of them (the jobs BullMQ still keeps), ms: ${stages.join('; ')}`;
}
