import { describe, expect, inject, it } from 'vitest';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { chaos, dependencyOutage, gatewayKill, jobKill, workerKill, type ScenarioResult } from '../src/index.ts';

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
  // (the client gives up at 15 s). A blackhole is the fault proxy swallowing every byte; a
  // freeze is the test's own store process SIGSTOPped, then continued: connections still open,
  // nothing answered, then everything at once. Purges and bulk adds start with the fault, so
  // their queues are first used while it lasts.
  it.each([
    { dependency: 'postgres', mode: 'blackhole', named: 'PostgreSQL silent' },
    { dependency: 'redis', mode: 'blackhole', named: 'Redis silent' },
    { dependency: 'redis', mode: 'freeze', named: 'Redis SIGSTOPped' },
    { dependency: 'postgres', mode: 'freeze', named: 'PostgreSQL SIGSTOPped' },
  ] as const)(
    '$dependency-$mode: $named 5 s under mixed traffic: only 503s, no hang, back within 5 s, nothing lost',
    async ({ dependency, mode }) => {
      const outage = dependencyOutage({
        name: `${dependency}-${mode}`,
        dependency,
        mode,
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

  // A fixed seed: the same faults every run, so a failure here replays with
  // `FAULTS_SEED=1 npm run faults -- --quick chaos`. 30 s of faults; answer and recovery bounds
  // with the slack above.
  it('chaos: 30 s of seeded store stalls and restarts and process kills: honest, bounded, nothing lost', async () => {
    const result = await chaos({ seed: 1, durationMs: 30_000, answerMs: 8_000, recoveryMs: 8_000 }).run(context());
    expect(result.problems).toEqual([]);
    expect([figure(result, 'lost'), figure(result, 'duplicated'), figure(result, 'events missing')]).toEqual([0, 0, 0]);
  }, 420_000);
});
