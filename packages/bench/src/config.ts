import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, z } from '@switchboard/config';

/** The repository root: children run from here, results land under it. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * Where the services come from, as for the tests (testkit's resolution order): these URLs when
 * set, else containers when Docker answers, else (S3 only) an in-process s3rver.
 */
const benchSchema = z.object({
  DATABASE_URL: z.string().optional(),
  REDIS_URL: z.string().optional(),
  S3_ENDPOINT: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_REGION: z.string().optional(),
  DOCKER_HOST: z.string().optional(),
  /** Where `<benchmark>.json` results are written, relative to the repository root. */
  BENCH_OUTPUT_DIR: z.string().default('.data/bench'),
  /**
   * When set, every process a benchmark starts runs with `--cpu-prof` and writes its profile
   * here on exit (`npm run bench:profile -- <dir>` summarises them).
   */
  BENCH_CPU_PROF_DIR: z.string().optional(),
});

export type BenchConfig = z.infer<typeof benchSchema> & { outputDirectory: string };

export function loadBenchConfig(): BenchConfig {
  const config = loadConfig(benchSchema, process.env, 'bench');
  return {
    ...config,
    outputDirectory: resolve(REPO_ROOT, config.BENCH_OUTPUT_DIR),
    ...(config.BENCH_CPU_PROF_DIR ? { BENCH_CPU_PROF_DIR: resolve(REPO_ROOT, config.BENCH_CPU_PROF_DIR) } : {}),
  };
}
