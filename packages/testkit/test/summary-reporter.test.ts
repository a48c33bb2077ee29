import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const VITEST = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');
const CONFIG = join(import.meta.dirname, 'fixtures/summary/vitest.config.ts');

async function runFixture(): Promise<string> {
  const env = { ...process.env };
  delete env.SWITCHBOARD_TEST_SUMMARY_FILE;
  const run = promisify(execFile)(process.execPath, [VITEST, 'run', '--config', CONFIG], { env }).catch(
    (error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }),
  );
  return (await run).stdout;
}

describe('summary reporter', () => {
  it('ends a failed run with each failed test by file and name, then the counts', async () => {
    const lines = (await runFixture()).trimEnd().split('\n');
    expect(lines.at(-1)).toBe('1 passed, 1 failed');
    expect(lines.at(-3)).toMatch(
      /^ {2}FAIL outcomes\.fixture\.ts > outcomes > fails with its reason: expected 'actual' to be 'expected'/,
    );
    expect(lines.at(-4)).toBe('failed:');
  }, 60_000);
});
