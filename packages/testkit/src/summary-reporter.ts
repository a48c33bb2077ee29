import { writeFileSync } from 'node:fs';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Ends the run with the failures, one line each (`FAIL file > test: first line of the error`),
 * then one plain line, `N passed, N failed` (skipped tests counted after it), the line CI reads.
 * Failed suites and unhandled errors count as failures.
 *
 * Under `npm test` (SUMMARY_FILE_VARIABLE set) the text goes to that file instead, and the
 * runner prints it after it has stopped the run's stores, so a failed run's last lines name
 * what failed, not the stores' shutdown.
 */
export const SUMMARY_FILE_VARIABLE = 'SWITCHBOARD_TEST_SUMMARY_FILE';

const firstLine = (error: { message?: unknown } | undefined) =>
  String(error?.message ?? 'failed')
    .split('\n')[0]!
    .slice(0, 300);

function moduleFailures(module: TestModule): { passed: number; failed: number; skipped: number; lines: string[] } {
  const counts = { passed: 0, failed: 0, skipped: 0, lines: [] as string[] };
  for (const test of module.children.allTests()) {
    const result = test.result();
    if (result.state === 'passed') counts.passed++;
    else if (result.state === 'failed') {
      counts.failed++;
      counts.lines.push(`FAIL ${module.relativeModuleId} > ${test.fullName}: ${firstLine(result.errors[0])}`);
    } else counts.skipped++;
  }
  // A file that failed to load, or whose hooks failed, may have no failed test of its own.
  if (module.state() === 'failed' && counts.lines.length === 0) {
    counts.failed++;
    counts.lines.push(`FAIL ${module.relativeModuleId} (the file itself): ${firstLine(module.errors()[0])}`);
  }
  return counts;
}

export function summarise(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): string {
  let passed = 0;
  let failed = unhandledErrors.length;
  let skipped = 0;
  const lines = unhandledErrors.map((error) => `FAIL unhandled error: ${firstLine(error as { message?: unknown })}`);
  for (const module of testModules) {
    const counts = moduleFailures(module);
    passed += counts.passed;
    failed += counts.failed;
    skipped += counts.skipped;
    lines.push(...counts.lines);
  }
  const heading = lines.length > 0 ? `\nfailed:\n${lines.map((line) => `  ${line}\n`).join('')}` : '';
  return `${heading}\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`;
}

export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    const text = summarise(testModules, unhandledErrors);
    const file = process.env[SUMMARY_FILE_VARIABLE];
    if (file) writeFileSync(file, text);
    else process.stdout.write(text);
  }
}
