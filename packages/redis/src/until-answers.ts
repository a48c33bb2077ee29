import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '@switchboard/logger';

/** How long start-up work that met a silent Redis waits before it tries again. */
const RETRY_MS = 1_000;

/**
 * Runs `work` until it succeeds, again every second while it fails, for start-up steps that
 * need Redis: a process started during an outage or a stall starts once Redis answers, rather
 * than exiting. An error `isFinal` accepts is thrown at once. The first failure and then one in
 * ten are logged as `what`: a long outage is said, not shouted.
 */
export async function untilRedisAnswers<T>(
  work: () => Promise<T>,
  { logger, what, isFinal = () => false }: { logger: Logger; what: string; isFinal?: (error: unknown) => boolean },
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (isFinal(error)) throw error;
      if (attempt % 10 === 1) logger.warn({ reason: (error as Error).message, attempt }, what);
      await sleep(RETRY_MS);
    }
  }
}
