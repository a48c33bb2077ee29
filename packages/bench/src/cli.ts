import { parseArgs } from 'node:util';
import { z } from '@switchboard/config';
import type { LoadOptions } from './types.ts';

export interface CliOptions {
  benchmarks: string[];
  load: LoadOptions;
  /** Times each benchmark runs; with more than one, each figure's median and range follow. */
  rounds: number;
  list: boolean;
  /** Whether --duration was given: else a benchmark's own default applies (loadFor). */
  durationGiven: boolean;
}

export const USAGE = `usage: npm run bench -- [name ...] [--duration <s>] [--connections <n>] [--warmup <s>] [--rounds <n>] [--list]
  name           benchmarks to run (default: all); --list shows them
  --duration     measured seconds per target (default 10; system: 120, its capacity run)
  --connections  concurrent connections (default 50)
  --warmup       discarded warm-up seconds before each measurement (default 3)
  --rounds       runs of each benchmark, then the median and range of each figure (default 1)`;

const optionsSchema = z.object({
  duration: z.coerce.number().int().min(1).max(3_600).default(10),
  connections: z.coerce.number().int().min(1).max(10_000).default(50),
  warmup: z.coerce.number().int().min(0).max(600).default(3),
  rounds: z.coerce.number().int().min(1).max(50).default(1),
  list: z.boolean().default(false),
});

/** Parses the command line; throws with a readable message on anything unknown or out of range. */
export function parseCli(argv: string[]): CliOptions {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      duration: { type: 'string', short: 'd' },
      connections: { type: 'string', short: 'c' },
      warmup: { type: 'string', short: 'w' },
      rounds: { type: 'string', short: 'r' },
      list: { type: 'boolean', short: 'l' },
    },
  });
  const parsed = optionsSchema.safeParse(values);
  if (!parsed.success) {
    throw new Error(parsed.error.issues.map((issue) => `--${issue.path.join('.')}: ${issue.message}`).join('\n'));
  }
  const { duration, connections, warmup, rounds, list } = parsed.data;
  return {
    benchmarks: positionals,
    load: { durationSeconds: duration, connections, warmupSeconds: warmup },
    rounds,
    list,
    durationGiven: values.duration !== undefined,
  };
}

/** The load options for `benchmark`: its own default duration unless --duration was given. */
export function loadFor(cli: CliOptions, benchmark: { defaultDurationSeconds?: number }): LoadOptions {
  if (cli.durationGiven || benchmark.defaultDurationSeconds === undefined) return cli.load;
  return { ...cli.load, durationSeconds: benchmark.defaultDurationSeconds };
}
