import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';
import {
  commonSchema,
  env,
  parseConfig,
  s3Schema,
  secretsEncryptionSchema,
  snowflakeSchema,
  z,
  type ParsedConfig,
} from '@switchboard/config';

/** The repository root: packages/cli/src/ is three levels below it. */
const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/**
 * What the CLI reads. S3_* is only used by `demo seed`; its defaults suit the dev stack.
 * REDIS_URL is needed by the commands that make ids (`admin create`, `demo seed`): like every
 * process that makes ids, they lease a snowflake worker id (SNOWFLAKE_WORKER_ID preferred).
 */
export const cliConfigSchema = z.object({
  DATABASE_URL: env.url(['postgres', 'postgresql']),
  DATABASE_DIRECT_URL: commonSchema.shape.DATABASE_DIRECT_URL,
  DATABASE_POOL_MODE: commonSchema.shape.DATABASE_POOL_MODE,
  DATABASE_PREPARED_STATEMENTS: commonSchema.shape.DATABASE_PREPARED_STATEMENTS,
  REDIS_URL: commonSchema.shape.REDIS_URL.optional(),
  REDIS_SENTINELS: commonSchema.shape.REDIS_SENTINELS,
  REDIS_SENTINEL_NAME: commonSchema.shape.REDIS_SENTINEL_NAME,
  REDIS_CLUSTER_NODES: commonSchema.shape.REDIS_CLUSTER_NODES,
  REDIS_PREFIX: commonSchema.shape.REDIS_PREFIX,
  ...snowflakeSchema.shape,
  ...s3Schema.shape,
  // `migrate` seals webhook secrets under the write key (docs/decisions.md#secrets-encrypted-at-rest).
  ...secretsEncryptionSchema.shape,
});

export type CliConfig = z.infer<typeof cliConfigSchema>;

/**
 * What the commands served by the HTTP API read: where the gateway is (its PUBLIC_BASE_URL; a
 * trailing `/v1` is allowed) and the admin key they act with, or `SWITCHBOARD_ADMIN_KEY_FILE`.
 */
export const apiConfigSchema = z.object({
  SWITCHBOARD_URL: env.url(['http', 'https']).default('http://localhost:8080'),
  SWITCHBOARD_ADMIN_KEY: z.string({ error: 'required: an admin API key (admin create prints the first)' }).min(1),
  /** Bound on one request (an archive download's bytes are not bounded by it). */
  SWITCHBOARD_TIMEOUT_MS: env.int(100, 600_000).default(30_000),
});

export type ApiConfig = z.infer<typeof apiConfigSchema>;

/** The variables that, all set, mean "use the environment only". */
const STACK_VARIABLES = ['DATABASE_URL', 'REDIS_URL', 'S3_ENDPOINT'] as const;

type Env = Record<string, string | undefined>;

/**
 * Where a running `npm start` writes its connection settings (KEY=VALUE lines):
 * `<repo>/<DEVSTACK_DATA_DIR or .data>/devstack.env`, as the dev stack computes it.
 */
export function devstackEnvPath(processEnv: Env): string {
  return resolve(REPO_ROOT, processEnv.DEVSTACK_DATA_DIR || '.data', 'devstack.env');
}

/**
 * The environment the CLI parses: the process environment, and when any of DATABASE_URL,
 * REDIS_URL or S3_ENDPOINT is unset there, the dev stack's file beneath it. A variable set
 * (non-empty) in the environment always wins over the file.
 */
export function mergeDevstackEnv(processEnv: Env, filePath = devstackEnvPath(processEnv)): Env {
  if (STACK_VARIABLES.every((name) => processEnv[name])) return processEnv;
  let fileEnv: Env;
  try {
    fileEnv = parseEnv(readFileSync(filePath, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return processEnv;
    throw error;
  }
  const fromEnv = Object.fromEntries(
    Object.entries(processEnv).filter(([, value]) => value !== undefined && value !== ''),
  );
  return { ...fileEnv, ...fromEnv };
}

/** Parses the database commands' configuration once, at start (with loadApiConfig, the only readers of process.env here). */
export function loadCliConfig(processEnv: Env = process.env): ParsedConfig<CliConfig> {
  return parseConfig(cliConfigSchema, mergeDevstackEnv(processEnv));
}

/** Parses the API commands' configuration once, at start; they need no database or Redis. */
export function loadApiConfig(processEnv: Env = process.env): ParsedConfig<ApiConfig> {
  return parseConfig(apiConfigSchema, processEnv);
}
