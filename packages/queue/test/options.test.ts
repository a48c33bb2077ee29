import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import {
  COMPLETED_JOB_RETENTION,
  defineJob,
  FAILED_JOB_RETENTION,
  JOB_ORIGIN_FIELD,
  QUEUES,
} from '@switchboard/contracts';
import { bullPrefix, toJobOptions } from '../src/index.ts';

const payload = z.object({ archiveId: z.string() });

describe('defineJob', () => {
  it('fills the defaults a contract does not set', () => {
    const contract = defineJob({ queue: QUEUES.archiveExports, name: 'build-archive', payload });
    expect(contract.defaults).toEqual({
      attempts: 5,
      backoff: { type: 'exponential', delayMs: 1000 },
      removeOnComplete: COMPLETED_JOB_RETENTION,
      removeOnFail: FAILED_JOB_RETENTION,
    });
    const custom = defineJob({
      queue: QUEUES.archiveExports,
      name: 'build-archive',
      payload,
      defaults: { attempts: 2, backoff: { type: 'fixed', delayMs: 50 } },
    });
    expect(custom.defaults).toMatchObject({ attempts: 2, backoff: { type: 'fixed', delayMs: 50 } });
  });

  it('rejects names that are not stable lower-case constants, attempts below one, and deduplication without a derived job id', () => {
    expect(() => defineJob({ queue: QUEUES.archiveExports, name: 'Build:Archive', payload })).toThrow(/lower-case/);
    expect(() => defineJob({ queue: QUEUES.archiveExports, name: 'a', payload, defaults: { attempts: 0 } })).toThrow(
      /attempts/,
    );
    expect(() =>
      defineJob({ queue: QUEUES.archiveExports, name: 'a', payload, deduplicationId: ({ archiveId }) => archiveId }),
    ).toThrow(/derive its job id/);
  });

  it('refuses a payload that declares the field a job’s origin rides in', () => {
    const claiming = z.object({ archiveId: z.string(), [JOB_ORIGIN_FIELD]: z.string() });
    expect(() => defineJob({ queue: QUEUES.archiveExports, name: 'a', payload: claiming })).toThrow(/origin/);
  });
});

describe('toJobOptions', () => {
  const contract = defineJob({
    queue: QUEUES.archiveExports,
    name: 'build-archive',
    payload,
    jobId: ({ archiveId }) => archiveId,
    defaults: { attempts: 3, backoff: { type: 'exponential', delayMs: 100 } },
  });

  it('maps the contract to BullMQ options, with the job id prefixed by the job name', () => {
    expect(toJobOptions(contract, { archiveId: '1234' }, { delayMs: 500 })).toEqual({
      attempts: 3,
      backoff: { type: 'exponential', delay: 100 },
      removeOnComplete: { age: COMPLETED_JOB_RETENTION.ageSeconds, count: COMPLETED_JOB_RETENTION.count },
      removeOnFail: { age: FAILED_JOB_RETENTION.ageSeconds, count: FAILED_JOB_RETENTION.count },
      delay: 500,
      jobId: 'build-archive-1234',
    });
    expect(toJobOptions(contract, { archiveId: '1234' }, { jobId: 'retry-2' }).jobId).toBe('build-archive-retry-2');
  });

  it('refuses derived ids BullMQ would misread', () => {
    expect(() => toJobOptions(contract, { archiveId: 'a:b' })).toThrow(/no ':'/);
    expect(() => toJobOptions(contract, { archiveId: '' })).toThrow(/non-empty/);
  });

  it('namespaces BullMQ keys under the deployment prefix', () => {
    expect(bullPrefix('sb', { queue: QUEUES.assetPurges, connection: { isCluster: false } })).toBe('sb:bull');
  });
});
