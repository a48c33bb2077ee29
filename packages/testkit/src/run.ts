import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describeServices, startTestServices, type StartedServices } from './services/index.ts';

/**
 * `npm test` after the type check: finds the run's PostgreSQL, Redis and S3 once (see
 * startTestServices), says where they come from, runs vitest against them and stops what it
 * started, also on Ctrl-C or SIGTERM. Resolving them here rather than in vitest's global set-up
 * means a set-up failure is one sentence and a non-zero exit, not an empty test report.
 * Arguments are passed to `vitest run` (a file filter, `--reporter`, …).
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
process.stdout.write(`test services:\n${describeServices(started).map((line) => `  ${line}\n`).join('')}`);

const vitest = spawn(process.execPath, [VITEST, 'run', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, ...started.env },
});
// Ctrl-C reaches vitest through the terminal's process group; a SIGTERM sent to us alone is
// passed on. Either way the services are stopped once vitest has finished with them.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => vitest.kill(signal));
}
const [code, signal] = (await once(vitest, 'exit')) as [number | null, NodeJS.Signals | null];
await started.stop();
process.exit(code ?? (signal ? 1 : 0));
