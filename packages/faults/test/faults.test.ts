import { describe, expect, inject, it } from 'vitest';
import { useTestEnvironment } from '@switchboard/testkit';
import { dependencyOutage, gatewayKill, jobKill, workerKill, type ScenarioResult } from '../src/index.ts';

// The bounded fault suite inside `npm test`: the same scenarios as `npm run faults`, smaller.
// Each waits on conditions (queue drained, status completed) with generous bounds, never on time.
const environment = useTestEnvironment();
const context = () => ({
  environment,
  services: inject('services'),
  template: inject('templateDatabase'),
  log: () => {},
});

const figure = (result: ScenarioResult, name: string) =>
  result.figures.find(([figureName]) => figureName === name)?.[1];

describe('fault suite, bounded', () => {
  it('worker-kill: 300 deliveries with the webhook worker SIGKILLed once: 0 lost, 0 duplicated messages and events', async () => {
    const result = await workerKill({ deliveries: 300, kills: 1, concurrency: 8 }).run(context());
    expect(result.problems).toEqual([]);
    expect([figure(result, 'accepted'), figure(result, 'stored'), figure(result, 'events')]).toEqual([300, 300, 300]);
    expect([figure(result, 'lost'), figure(result, 'duplicated')]).toEqual([0, 0]);
  }, 120_000);

  it('gateway-kill: 300 deliveries with one of two gateway processes SIGKILLed once: 0 lost or duplicated, no hung answer', async () => {
    const result = await gatewayKill({ deliveries: 300, kills: 1, concurrency: 8 }).run(context());
    expect(result.problems).toEqual([]);
    expect(figure(result, 'accepted')).toBeGreaterThan(0);
    expect([figure(result, 'lost'), figure(result, 'duplicated'), figure(result, 'events missing')]).toEqual([0, 0, 0]);
  }, 120_000);

  it('job-kill: archive, purge and bulk workers SIGKILLed mid-job: each job completes once', async () => {
    const result = await jobKill.run(context());
    expect(result.problems).toEqual([]);
    expect(result.figures.map(([name]) => name)).toEqual(['archive', 'purge', 'bulk']);
  }, 120_000);

  // Answers come within ~4 s by design (README; a silent Redis: the 2 s request-path command
  // timeout); 8 s leaves room for a busy machine and still tells a bounded answer from a hang
  // (the client gives up at 15 s).
  it.each([
    { dependency: 'postgres', named: 'PostgreSQL' },
    { dependency: 'redis', named: 'Redis' },
  ] as const)(
    '$dependency-blackhole: $named silent 5 s under mixed traffic: only 503s, no hang, recovery, nothing lost',
    async ({ dependency }) => {
      const outage = dependencyOutage({
        name: `${dependency}-blackhole`,
        dependency,
        mode: 'blackhole',
        outageMs: 5_000,
        bounds: { answerMs: 8_000 },
      });
      const result = await outage.run(context());
      expect(result.problems).toEqual([]);
      expect([figure(result, 'executes lost'), figure(result, 'duplicated'), figure(result, '5xx not 503')]).toEqual([
        0, 0, 0,
      ]);
    },
    180_000,
  );

  // The real store process of the test's own frozen (SIGSTOP) 5 s, then continued: connections
  // still open, nothing answered, then everything at once. Purges and bulk adds start with the
  // freeze, so their queues are first used while it lasts.
  it.each([
    { dependency: 'redis', named: 'Redis' },
    { dependency: 'postgres', named: 'PostgreSQL' },
  ] as const)(
    '$dependency-freeze: $named SIGSTOPped 5 s under mixed traffic: only 503s, every kind back within 5 s, nothing lost',
    async ({ dependency }) => {
      const outage = dependencyOutage({
        name: `${dependency}-freeze`,
        dependency,
        mode: 'freeze',
        outageMs: 5_000,
        bounds: { answerMs: 8_000 },
      });
      const result = await outage.run(context());
      expect(result.problems).toEqual([]);
      expect([figure(result, 'executes lost'), figure(result, 'duplicated'), figure(result, '5xx not 503')]).toEqual([
        0, 0, 0,
      ]);
    },
    240_000,
  );
});
