import { describe, expect, it } from 'vitest';
import { createLogger, type Logger } from '@switchboard/logger';
import { RunningJobContext } from '../src/job-context.ts';

/** A real worker logger that counts the child loggers made from it. */
function countingLogger(): { logger: Logger; children: () => number } {
  const logger = createLogger('job-context-test', 'silent');
  let made = 0;
  const child = logger.child.bind(logger);
  logger.child = ((...args: Parameters<Logger['child']>) => {
    made += 1;
    return child(...args);
  }) as Logger['child'];
  return { logger, children: () => made };
}

const job = { jobId: 'archive-1', jobName: 'build-archive', attemptsMade: 2, signal: new AbortController().signal };

describe('RunningJobContext', () => {
  it('tells the handler its job, and destructures like a plain object', () => {
    const { jobId, jobName, attemptsMade, signal } = new RunningJobContext(job, countingLogger().logger);
    expect({ jobId, jobName, attemptsMade, signal }).toEqual(job);
  });

  it('makes the job logger on first use only, once, bound to the job', () => {
    const { logger, children } = countingLogger();
    const context = new RunningJobContext(job, logger);
    expect(children()).toBe(0);
    const first = context.logger;
    expect(context.logger).toBe(first);
    expect(children()).toBe(1);
    expect(first.bindings()).toMatchObject({ jobName: 'build-archive', jobId: 'archive-1' });
  });

  it('keeps nothing of the job on the object but what it tells (no per-object closure)', () => {
    const context = new RunningJobContext(job, countingLogger().logger);
    expect(Object.getOwnPropertyDescriptor(context, 'logger')).toBeUndefined();
    expect(typeof Object.getOwnPropertyDescriptor(RunningJobContext.prototype, 'logger')?.get).toBe('function');
  });
});
