import { findBenchmarks, BENCHMARKS } from './benchmarks/index.ts';
import { CleanupStack } from './cleanup.ts';
import { loadFor, parseCli, USAGE, type CliOptions } from './cli.ts';
import { loadBenchConfig } from './config.ts';
import { createHarness } from './context.ts';
import { formatReport, writeReport, writeRoundsSummary } from './report.ts';
import { formatRoundsSummary, summariseRounds } from './rounds.ts';
import type { Benchmark, BenchReport } from './types.ts';

const config = loadBenchConfig();

function usageError(message: string): never {
  process.stderr.write(`${message}\n${USAGE}\n`);
  process.exit(2);
}

let cli: CliOptions;
let selected: Benchmark[];
try {
  cli = parseCli(process.argv.slice(2));
  selected = findBenchmarks(cli.benchmarks);
} catch (error) {
  usageError((error as Error).message);
}
if (cli.list) {
  for (const benchmark of BENCHMARKS) process.stdout.write(`${benchmark.name.padEnd(16)} ${benchmark.description}\n`);
  process.exit(0);
}

/** Runs last: stops the services. Each benchmark's processes are stopped right after it. */
const shared = new CleanupStack();
let current: CleanupStack | undefined;

async function stopEverything(): Promise<void> {
  await current?.run();
  await shared.run();
}

// Ctrl-C during a run still stops every child, the database and the containers.
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    interrupted = true;
    process.stderr.write(`bench: ${signal}, cleaning up\n`);
    // Work still in flight (a migration, a request) fails as its services go away; that must
    // not crash the process before every child is stopped.
    const ignore = (error: unknown) => process.stderr.write(`bench: during cleanup: ${(error as Error).message}\n`);
    process.on('uncaughtException', ignore);
    process.on('unhandledRejection', ignore);
    void stopEverything().finally(() => process.exit(130));
  });
}

let failed = false;
try {
  const harness = createHarness(config, shared);
  for (const benchmark of selected) {
    const load = loadFor(cli, benchmark);
    const reports: BenchReport[] = [];
    for (let round = 1; round <= cli.rounds; round++) {
      current = new CleanupStack();
      try {
        const report = await benchmark.run(harness.contextFor(current, load));
        reports.push(report);
        const path = await writeReport(config.outputDirectory, report, load);
        const heading = cli.rounds > 1 ? `round ${round} of ${cli.rounds}\n` : '';
        process.stdout.write(`\n${heading}${formatReport(report, load)}\nresults: ${path}\n`);
      } finally {
        await current.run();
      }
    }
    if (cli.rounds > 1) {
      const summary = summariseRounds(reports);
      const path = await writeRoundsSummary(config.outputDirectory, summary, load);
      process.stdout.write(`\n${formatRoundsSummary(summary)}\nrounds: ${path}\n`);
    }
  }
} catch (error) {
  failed = true;
  // After Ctrl-C the benchmark fails because its processes were stopped: not worth a trace.
  if (!interrupted) process.stderr.write(`bench failed: ${(error as Error).stack ?? String(error)}\n`);
} finally {
  await stopEverything();
}
process.exit(failed ? 1 : 0);
