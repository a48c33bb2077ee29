import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describeServices, startTestServices, type StartedServices } from './services/index.ts';
import { SUMMARY_FILE_VARIABLE } from './summary-reporter.ts';

/**
 * `npm test` after the type check: finds the run's PostgreSQL, Redis and S3 once (see
 * startTestServices), says where they come from, runs vitest against them and stops what it
 * started, also on Ctrl-C or SIGTERM. Resolving them here rather than in vitest's global set-up
 * means a set-up failure is one sentence and a non-zero exit, not an empty test report.
 * Arguments are passed to `vitest run` (a file filter, `--reporter`, …).
 *
 * The run ends with the summary reporter's text (failed tests by file and name, then
 * `N passed, N failed`), printed after the stores are stopped so that it is the last thing
 * printed; a vitest that ended without reporting is said so in one line.
 */

/** vitest's own entry, from its package.json `bin` (its exports do not list the file). */
const VITEST = join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs');

let started: StartedServices;
try {
  started = await startTestServices(process.env);
} catch (error) {
  process.stderr.write(`npm test: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
process.stdout.write(
  `test services:\n${describeServices(started)
    .map((line) => `  ${line}\n`)
    .join('')}`,
);

const summaryFolder = mkdtempSync(join(tmpdir(), 'switchboard-summary-'));
const summaryFile = join(summaryFolder, 'summary.txt');
const vitest = spawn(process.execPath, [VITEST, 'run', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, ...started.env, [SUMMARY_FILE_VARIABLE]: summaryFile },
});
// Ctrl-C reaches vitest through the terminal's process group; a SIGTERM sent to us alone is
// passed on. Either way the services are stopped once vitest has finished with them.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => vitest.kill(signal));
}
const [code, signal] = (await once(vitest, 'exit')) as [number | null, NodeJS.Signals | null];
await started.stop();

const summary = (() => {
  try {
    return readFileSync(summaryFile, 'utf8');
  } catch {
    return undefined;
  }
})();
rmSync(summaryFolder, { recursive: true, force: true });
const exitCode = code ?? (signal ? 1 : 0);
if (summary === undefined) {
  const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
  process.stdout.write(`\nnpm test: vitest ${how} before reporting any result: see its output above\n`);
  process.exit(exitCode === 0 ? 1 : exitCode);
}
process.stdout.write(summary);
process.exit(exitCode);
