import { describe, expect, it } from 'vitest';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { useTestPool } from '@switchboard/testkit/pool';
import { formatMachineCpu, machineCpuPerUnit } from '../src/machine-cpu.ts';

const environment = useTestEnvironment();
const pool = useTestPool(environment);

/** Keeps this thread on a core for `ms` of wall time. */
function spin(ms: number): number {
  const until = performance.now() + ms;
  let turns = 0;
  while (performance.now() < until) turns += 1;
  return turns;
}

// Lower bounds only: whatever else runs on the machine meanwhile (other test files) adds to both.
describe.skipIf(process.platform !== 'linux')('machine CPU per unit of work', () => {
  it("counts any process's busy time, per unit", async () => {
    const { result, machine } = await machineCpuPerUnit(
      async () => spin(400),
      () => 2,
    );
    expect(result).toBeGreaterThan(0);
    expect(machine.totalMs).toBeGreaterThanOrEqual(150);
  });

  it("tells PostgreSQL's share: the server's own work for a statement", async () => {
    const { machine } = await machineCpuPerUnit(
      () => pool().query('SELECT count(*) FROM generate_series(1, 6000000) AS g WHERE g % 7 = 3'),
      () => 1,
    );
    expect(machine.services.postgres).toBeGreaterThanOrEqual(100);
    expect(machine.totalMs).toBeGreaterThanOrEqual(machine.services.postgres * 0.8);
    expect(formatMachineCpu(machine)).toMatch(/^\d+\.\d{3} \(postgres \d+\.\d{3}, redis \d+\.\d{3}\)$/);
  });
});
