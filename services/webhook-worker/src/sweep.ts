import type { JobType } from 'bullmq';
import { WEBHOOK_BODY_PREFIX, WEBHOOK_DELIVERY_JOB } from '@switchboard/contracts';
import type { Logger } from '@switchboard/logger';
import { jobIdOf } from '@switchboard/queue';
import type { ListedObject, Storage } from '@switchboard/storage';

/** A job in one of these states may still read its body: unfinished, or failed (an operator may retry it). */
const READS_BODY_LATER = new Set<JobType | 'unknown'>([
  'waiting',
  'active',
  'delayed',
  'prioritized',
  'waiting-children',
  'failed',
]);

export interface BodySweepDeps {
  storage: Storage;
  /** BullMQ's state of the job with this id, `unknown` when there is none. */
  jobState(jobId: string): Promise<JobType | 'unknown'>;
  /** Bodies younger than this are never touched: their enqueue may still be on its way. */
  orphanAgeMs: number;
  logger: Logger;
}

/** `webhook-bodies/<webhook id>/<message id>.json` → the id of the delivery job that reads it. */
function deliveryJobIdOf(key: string): string {
  return jobIdOf(WEBHOOK_DELIVERY_JOB, key.slice(key.lastIndexOf('/') + 1).replace(/\.json$/, ''));
}

/**
 * The body sweep (WEBHOOK_BODY_SWEEP_JOB): removes the claim-checked bodies older than
 * `orphanAgeMs` whose delivery job is gone or completed, so no job that may still run loses its
 * body. A page the store or Redis fails on fails the run; the next tick starts over.
 */
export function bodySweepHandler(deps: BodySweepDeps): () => Promise<{ removed: number }> {
  const orphansOf = async (page: ListedObject[], cutoff: number): Promise<string[]> => {
    const old = page.filter((object) => object.lastModified.getTime() <= cutoff);
    const states = await Promise.all(old.map((object) => deps.jobState(deliveryJobIdOf(object.key))));
    return old.filter((_object, index) => !READS_BODY_LATER.has(states[index]!)).map((object) => object.key);
  };
  return async () => {
    const cutoff = Date.now() - deps.orphanAgeMs;
    let removed = 0;
    for await (const page of deps.storage.listObjects(WEBHOOK_BODY_PREFIX)) {
      const orphans = await orphansOf(page, cutoff);
      if (orphans.length === 0) continue;
      const result = await deps.storage.deleteObjects(orphans);
      removed += result.deleted.length;
      if (result.errors.length > 0)
        deps.logger.warn(
          { refused: result.errors.length, reason: result.errors[0]?.message },
          'orphaned webhook bodies not deleted',
        );
    }
    if (removed > 0) deps.logger.info({ removed }, 'orphaned webhook bodies removed');
    return { removed };
  };
}
