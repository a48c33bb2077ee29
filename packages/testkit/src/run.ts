import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { startPgBouncer, TEST_POOLER_VARIABLE, type RunningPgBouncer } from './pgbouncer.ts';
import { describeServices, startTestServices, type StartedServices } from './services/index.ts';
import { SUMMARY_FILE_VARIABLE } from './summary-reporter.ts';

/**
 * `npm test` after the type check: finds the run's PostgreSQL, Redis and S3 once (see
 * startTestServices), says where they come from, runs vitest against them and stops what it
 * started, also on Ctrl-C or SIGTERM. Resolving them here rather than in vitest's global set-up
 * means a set-up failure is one sentence and a non-zero exit, not an empty test report.
 * Arguments are passed to `vitest run` (a file filter, `--reporter`, …).
 *
 * With no arguments, a second pass runs the suites of the gateway's executes, admin routes and
 * bans and of every worker again, their processes reaching PostgreSQL through a PgBouncer in
 * transaction mode (POOLED_PASS_FILTERS; `SWITCHBOARD_TEST_POOLED_PASS=off` skips it).
 *
 * The run ends with the summary reporter's text of each pass (failed tests by file and name,
 * then `N passed, N failed`), and with two passes a last line adding them up, printed after the
 * stores are stopped so that it is the last thing printed; a vitest that ended without
 * reporting is said so in one line.
 */

/** `off` skips the pooled pass (a machine without PgBouncer, or a quicker local run). */
const POOLED_PASS_VARIABLE = 'SWITCHBOARD_TEST_POOLED_PASS';
/** vitest file filters (path substrings) of the pooled pass. */
const POOLED_PASS_FILTERS = [
  'services/gateway/test/webhook-execute',
  'services/gateway/test/admin-',
  'services/gateway/test/bans-',
  'worker/test/',
];

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
const filters = process.argv.slice(2);
const passes: Pass[] = [{ name: 'all tests', args: filters }];
// A run of the whole suite also runs, through a PgBouncer in transaction mode, the suites of
// what reaches PostgreSQL through DATABASE_URL in production: the gateway's executes, admin
// routes and bans, and every worker (docs/decisions.md#behind-a-transaction-pooler).
if (filters.length === 0 && process.env[POOLED_PASS_VARIABLE] !== 'off') {
  passes.push({ name: 'through PgBouncer (transaction mode)', args: POOLED_PASS_FILTERS, pooled: true });
}

let signalled: NodeJS.Signals | undefined;
let current: ChildProcess | undefined;
// Ctrl-C reaches vitest through the terminal's process group; a SIGTERM sent to us alone is
// passed on. Either way the services are stopped once vitest has finished with them.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    signalled = signal;
    current?.kill(signal);
  });
}

const outcomes: PassOutcome[] = [];
for (const [index, pass] of passes.entries()) {
  if (signalled) break;
  const outcome = await runPass(pass, join(summaryFolder, `summary-${index}.txt`));
  outcomes.push(outcome);
  // A vitest killed from outside (not through us) ends the run too: its services may be gone.
  if (outcome.killed) break;
}
await started.stop();
rmSync(summaryFolder, { recursive: true, force: true });

const unreported = outcomes.find((outcome) => outcome.summary === undefined);
for (const outcome of outcomes) {
  if (outcomes.length > 1) process.stdout.write(`\n== ${outcome.pass.name}\n`);
  if (outcome.summary !== undefined) process.stdout.write(outcome.summary);
  else process.stdout.write(`npm test: vitest ${outcome.how} before reporting any result: see its output above\n`);
}
if (outcomes.length > 1) {
  const counts = outcomes.map((outcome) => countsOf(outcome.summary));
  const passed = counts.reduce((sum, count) => sum + count.passed, 0);
  const failed = counts.reduce((sum, count) => sum + count.failed, 0);
  process.stdout.write(`\n${passed} passed, ${failed} failed\n`);
}
const exitCode = unreported ? 1 : (outcomes.find((outcome) => outcome.exitCode !== 0)?.exitCode ?? 0);
process.exit(signalled && exitCode === 0 ? 1 : exitCode);

interface Pass {
  name: string;
  args: string[];
  /** Runs with a PgBouncer in front of the run's PostgreSQL (TEST_POOLER_VARIABLE). */
  pooled?: boolean;
}

interface PassOutcome {
  pass: Pass;
  summary: string | undefined;
  exitCode: number;
  /** How vitest ended, for a pass that reported nothing. */
  how: string;
  /** vitest was ended by a signal, or exited as one it caught (128 + its number). */
  killed: boolean;
}

async function runPass(pass: Pass, summaryFile: string): Promise<PassOutcome> {
  let bouncer: RunningPgBouncer | undefined;
  const env: Record<string, string | undefined> = { ...process.env, ...started.env };
  if (pass.pooled) {
    try {
      bouncer = await startPgBouncer(started.services.databaseUrl);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return { pass, summary: undefined, exitCode: 1, how: `did not run (${reason})`, killed: false };
    }
    env[TEST_POOLER_VARIABLE] = bouncer.urlFor(started.services.databaseUrl);
    process.stdout.write(`\n== ${pass.name}: ${env[TEST_POOLER_VARIABLE]}\n`);
  }
  try {
    current = spawn(process.execPath, [VITEST, 'run', ...pass.args], {
      stdio: 'inherit',
      env: { ...env, [SUMMARY_FILE_VARIABLE]: summaryFile },
    });
    const [code, signal] = (await once(current, 'exit')) as [number | null, NodeJS.Signals | null];
    current = undefined;
    const summary = (() => {
      try {
        return readFileSync(summaryFile, 'utf8');
      } catch {
        return undefined;
      }
    })();
    const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    // vitest catches SIGTERM and SIGINT and exits 128 + the signal's number.
    return { pass, summary, exitCode: code ?? (signal ? 1 : 0), how, killed: signal !== null || (code ?? 0) > 128 };
  } finally {
    await bouncer?.stop();
  }
}

/** The counts of a summary's `N passed, N failed` line; a pass without one counts one failure. */
function countsOf(summary: string | undefined): { passed: number; failed: number } {
  const match = /^(\d+) passed, (\d+) failed/m.exec(summary ?? '');
  return match ? { passed: Number(match[1]), failed: Number(match[2]) } : { passed: 0, failed: 1 };
}
