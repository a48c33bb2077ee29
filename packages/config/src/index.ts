import { z } from 'zod';
import { readSecretFiles } from './secret-files.ts';

export { z };
export { SECRET_VARIABLES } from './secret-files.ts';

/**
 * Parses the environment with one process's schema, once, at start. On failure every bad
 * variable is printed (never its value: it may be a secret) and the process exits non-zero.
 */
export function loadConfig<Schema extends z.ZodType>(
  schema: Schema,
  env: Record<string, string | undefined> = process.env,
  processName = 'switchboard',
): z.infer<Schema> {
  const result = parseConfig(schema, env);
  if (result.ok) return result.config;
  process.stderr.write(`${processName}: invalid configuration\n${result.problems.map((p) => `  - ${p}`).join('\n')}\n`);
  process.exit(78); // EX_CONFIG
}

export type ParsedConfig<T> = { ok: true; config: T } | { ok: false; problems: string[] };

/** The pure half of loadConfig, for callers (and tests) that report errors themselves. */
export function parseConfig<Schema extends z.ZodType>(
  schema: Schema,
  env: Record<string, string | undefined>,
): ParsedConfig<z.infer<Schema>> {
  // Empty variables count as unset, as in most deployment tools' env files.
  const set = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const { env: cleaned, problems: unreadable } = readSecretFiles(set);
  if (unreadable.length > 0) return { ok: false, problems: unreadable };
  const result = schema.safeParse(cleaned);
  if (!result.success) {
    const problems = result.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    return { ok: false, problems };
  }
  const problems = crossVariableProblems(result.data as Record<string, unknown>);
  return problems.length === 0 ? { ok: true, config: result.data } : { ok: false, problems };
}

/** The key id of the development S3 stores (the dev stack's s3rver, the tests'). */
export const DEVELOPMENT_S3_KEY = 'S3RVER';

/**
 * Rules across variables, for whichever of them a process's schema reads; here rather than in
 * each schema so that schemas stay extendable objects. S3 keys come both or neither: neither
 * means the AWS SDK's default credential chain (instance role, IRSA web identity, AWS_*
 * variables, shared profile), what a production deployment on AWS uses; and production never
 * runs on the development store's key.
 */
function crossVariableProblems(config: Record<string, unknown>): string[] {
  const cluster = redisClusterProblem(config);
  if (cluster) return [cluster];
  if (config['SECRETS_ENCRYPTION_KEY'] !== undefined && config['SECRETS_ENCRYPTION_KEYS'] !== undefined) {
    return [
      'SECRETS_ENCRYPTION_KEY, SECRETS_ENCRYPTION_KEYS: set one of them (KEYS lists every key, the write key first)',
    ];
  }
  const waitMs = config['REDIS_WAIT_TIMEOUT_MS'];
  const commandMs = config['REDIS_COMMAND_TIMEOUT_MS'];
  if (Number(config['REDIS_WAIT_REPLICAS'] ?? 0) > 0 && Number(waitMs) >= Number(commandMs)) {
    return [
      'REDIS_WAIT_TIMEOUT_MS: must be below REDIS_COMMAND_TIMEOUT_MS, or every wait for a replica that is late ends as a timed-out command and a replaced connection',
    ];
  }
  const keyId = config['S3_ACCESS_KEY_ID'];
  const secret = config['S3_SECRET_ACCESS_KEY'];
  if ((keyId === undefined) !== (secret === undefined)) {
    return [
      'S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: set both, or neither to use the AWS default credential chain (instance role, IRSA, AWS_* variables, shared profile)',
    ];
  }
  if (config['NODE_ENV'] === 'production' && (keyId === DEVELOPMENT_S3_KEY || secret === DEVELOPMENT_S3_KEY)) {
    return [
      `S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY: ${DEVELOPMENT_S3_KEY} is the development store's key and NODE_ENV is production: give the bucket's own keys, or neither to use the AWS default credential chain`,
    ];
  }
  return [];
}

/** `host:port,host:port,…` into its entries (REDIS_SENTINELS, REDIS_CLUSTER_NODES). */
function hostPortList() {
  return z.string().transform((list, context) => {
    const entries = list.split(',').map((entry) => /^\s*([^\s:]+):(\d{1,5})\s*$/.exec(entry));
    if (entries.some((match) => match === null)) {
      context.addIssue({ code: 'custom', message: 'expected host:port,host:port,…' });
      return z.NEVER;
    }
    return entries.map((match) => ({ host: match![1]!, port: Number(match![2]) }));
  });
}

/**
 * What a Redis Cluster cannot do for us. Sentinel watches single masters, a cluster fails over
 * by itself: one of the two. WAIT counts the writes of the connection it is sent on, and a
 * cluster client sends a key-less command to any node, so it would confirm nothing. A cluster
 * has only database 0.
 */
function redisClusterProblem(config: Record<string, unknown>): string | undefined {
  const nodes = config['REDIS_CLUSTER_NODES'] as unknown[] | undefined;
  if (!nodes || nodes.length === 0) return undefined;
  if ((config['REDIS_SENTINELS'] as unknown[] | undefined)?.length) {
    return 'REDIS_CLUSTER_NODES, REDIS_SENTINELS: set one of them (a Redis Cluster fails over by itself, without sentinels)';
  }
  if (Number(config['REDIS_WAIT_REPLICAS'] ?? 0) > 0) {
    return 'REDIS_WAIT_REPLICAS: must be 0 with REDIS_CLUSTER_NODES (WAIT counts the writes of one connection, and a cluster client sends it to any node)';
  }
  const url = config['REDIS_URL'];
  if (typeof url === 'string' && Number(new URL(url).pathname.slice(1) || 0) !== 0) {
    return 'REDIS_URL: a Redis Cluster has only database 0, remove the database number from the URL';
  }
  return undefined;
}

/** Reusable variable parsers, so every process reads the same names the same way. */
export const env = {
  /** A whole number from an environment string. */
  int: (min: number, max: number) => z.coerce.number().int().min(min).max(max),
  /** `true/false/1/0/yes/no/on/off`, case-insensitive. */
  bool: () =>
    z
      .string()
      .trim()
      .toLowerCase()
      .pipe(z.enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off']))
      .transform((value) => ['true', '1', 'yes', 'on'].includes(value)),
  url: (protocols: string[]) => z.url({ protocol: new RegExp(`^(${protocols.join('|')})$`) }),
  logLevel: () => z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']),
};

/**
 * Snowflake worker-id leases (@switchboard/snowflake): every process that mints ids holds a
 * worker id no other live process holds, leased in Redis.
 */
export const snowflakeSchema = z.object({
  /** The 10-bit worker id to lease when it is free; taken by another live process or unset: any free one. */
  SNOWFLAKE_WORKER_ID: env.int(0, 1023).optional(),
  /** How long a lease outlives its last renewal; it is renewed every third of this. */
  SNOWFLAKE_LEASE_TTL_MS: env.int(3_000, 600_000).default(30_000),
});

/** Variables every process that talks to the data stores reads. */
export const commonSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  LOG_LEVEL: env.logLevel().default('info'),
  DATABASE_URL: env.url(['postgres', 'postgresql']),
  /**
   * `transaction`: DATABASE_URL is a pooler in transaction mode (PgBouncer): no session
   * settings at connect, statement bounds set per transaction, statements unnamed unless
   * DATABASE_PREPARED_STATEMENTS. `session`: PostgreSQL itself, or a pooler in session mode.
   */
  DATABASE_POOL_MODE: z.enum(['session', 'transaction']).default('session'),
  /** PostgreSQL itself, for what needs one session throughout (LISTEN, migrations' lock); default DATABASE_URL. */
  DATABASE_DIRECT_URL: env.url(['postgres', 'postgresql']).optional(),
  /** Named prepared statements; default on in session mode, off in transaction mode (on for PgBouncer >= 1.21 with max_prepared_statements). */
  DATABASE_PREPARED_STATEMENTS: env.bool().optional(),
  DATABASE_POOL_SIZE: env.int(1, 200).default(10),
  /** Bound on opening a database connection. */
  DATABASE_CONNECT_TIMEOUT_MS: env.int(100, 600_000).default(2_000),
  /**
   * Bound on one SQL statement: the server cancels it (statement_timeout); a server that does
   * not answer at all is given up one second later and its connection dropped. 0: unbounded.
   */
  DATABASE_QUERY_TIMEOUT_MS: env.int(0, 3_600_000).default(3_000),
  REDIS_URL: env.url(['redis', 'rediss']),
  /**
   * `host:port,host:port,…`: Redis behind Sentinel. Every client asks these sentinels for the
   * master REDIS_SENTINEL_NAME, and again after a failover; REDIS_URL then gives only the
   * credentials and the database.
   */
  REDIS_SENTINELS: hostPortList().optional(),
  REDIS_SENTINEL_NAME: z.string().min(1).default('mymaster'),
  /**
   * `host:port,host:port,…`: seed nodes of a Redis Cluster. Clients learn every master from
   * them and follow slot moves and failovers; REDIS_URL then gives only the credentials
   * (docs/decisions.md#redis-cluster).
   */
  REDIS_CLUSTER_NODES: hostPortList().optional(),
  /** Prefix of every Redis key and channel, so deployments (and test files) can share a server. */
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.-]+$/)
    .default('sb'),
  /**
   * After PostgreSQL or S3 stopped answering (a connection failure, a client-side timeout),
   * calls to it fail at once for this long, then one probes: a silent dependency costs one
   * timeout, not one per request. 0: off.
   */
  DEPENDENCY_CIRCUIT_OPEN_MS: env.int(0, 60_000).default(1_000),
  /** Bound on each dependency check of /readyz. */
  READY_CHECK_TIMEOUT_MS: env.int(50, 60_000).default(2_000),
  /** Bound on one Redis command on request paths (not on workers' blocking connections). */
  REDIS_COMMAND_TIMEOUT_MS: env.int(50, 600_000).default(2_000),
  /**
   * Replicas that must hold an enqueued job before its request is answered (Redis `WAIT`
   * after each batch of adds). Replication is asynchronous: with 0, a master lost right after
   * an answer can take accepted jobs with it (docs/decisions.md#replicated-enqueues).
   */
  REDIS_WAIT_REPLICAS: env.int(0, 16).default(0),
  /** How long an enqueue waits for REDIS_WAIT_REPLICAS before it answers 503 (the job may exist). */
  REDIS_WAIT_TIMEOUT_MS: env.int(10, 60_000).default(500),
  ...snowflakeSchema.shape,
});

export const s3Schema = z.object({
  S3_ENDPOINT: env.url(['http', 'https']).optional(),
  S3_REGION: z.string().default('us-east-1'),
  S3_BUCKET: z.string().min(3).max(63).default('switchboard'),
  /** Static keys, both or neither (see crossVariableProblems): neither is the AWS default credential chain. */
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  /** Path-style addressing (`http://host/bucket/key`), needed by MinIO and s3rver. */
  S3_FORCE_PATH_STYLE: env.bool().default(true),
  /** Bound on opening a connection to the store. */
  S3_CONNECT_TIMEOUT_MS: env.int(100, 600_000).default(3_000),
  /** A request whose socket stays silent this long is dropped (and retried, up to S3_MAX_ATTEMPTS). */
  S3_REQUEST_TIMEOUT_MS: env.int(100, 3_600_000).default(3_000),
  S3_MAX_ATTEMPTS: env.int(1, 10).default(2),
  /** Connections to the store at most; requests beyond them queue in the process. */
  S3_MAX_SOCKETS: env.int(1, 1_000).default(50),
});

/** A 32-byte key in base64, as `openssl rand -base64 32` prints one. */
const encryptionKey = z
  .string()
  .trim()
  .refine((text) => /^[A-Za-z0-9+/]+={0,2}$/.test(text) && Buffer.from(text, 'base64').length === 32, {
    message: 'a 32-byte key in base64 (openssl rand -base64 32)',
  })
  .transform((text) => Buffer.from(text, 'base64'));

/**
 * Keys of secrets encrypted at rest (docs/decisions.md#secrets-encrypted-at-rest): one key, or
 * several for rotation, comma-separated, the first used for new writes and every one for reads.
 * Setting both is refused (secretKeysOf). Neither: secrets are stored as given (development).
 */
export const secretsEncryptionSchema = z.object({
  SECRETS_ENCRYPTION_KEY: encryptionKey.optional(),
  SECRETS_ENCRYPTION_KEYS: z
    .string()
    .transform((list) => list.split(',').map((entry) => entry.trim()))
    .pipe(z.array(encryptionKey).min(1))
    .optional(),
});

export type SecretsEncryptionConfig = z.infer<typeof secretsEncryptionSchema>;

/** The configured keys, the write key first; an empty list when none is set. */
export function secretKeysOf(config: SecretsEncryptionConfig): Buffer[] {
  return config.SECRETS_ENCRYPTION_KEYS ?? (config.SECRETS_ENCRYPTION_KEY ? [config.SECRETS_ENCRYPTION_KEY] : []);
}

export type CommonConfig = z.infer<typeof commonSchema>;
export type S3Config = z.infer<typeof s3Schema>;
export type SnowflakeConfig = z.infer<typeof snowflakeSchema>;
