import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import { CreateBucketCommand, HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import { CircuitOpenError, createCircuitBreaker, isNetworkFailure } from '@switchboard/circuit-breaker';
import { useContentMd5ForDeleteObjects } from './content-md5.ts';

export interface StorageOptions {
  /** Unset means AWS itself; set for MinIO, s3rver or any other S3-compatible store. */
  endpoint?: string;
  region: string;
  bucket: string;
  /** Static keys; none means the AWS SDK's default credential chain (instance role, IRSA, AWS_* variables, profile). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  forcePathStyle: boolean;
  bounds?: StorageBounds;
}

/** How long the store gets: without bounds a silent store holds a request (and its socket) forever. */
export interface StorageBounds {
  connectTimeoutMs: number;
  /** Inactivity of one request's socket before it is dropped (with the request). */
  socketIdleTimeoutMs: number;
  /** Tries of one request, the first included (the SDK backs off between them). */
  maxAttempts: number;
  maxSockets: number;
  /** After the store stopped answering, calls fail at once this long, then one probes; 0: off. */
  circuitOpenMs: number;
}

export const DEFAULT_STORAGE_BOUNDS: StorageBounds = {
  connectTimeoutMs: 3_000,
  socketIdleTimeoutMs: 3_000,
  maxAttempts: 2,
  maxSockets: 50,
  circuitOpenMs: 1_000,
};

/** Maps the S3_* configuration (see @switchboard/config `s3Schema`) to storage options. */
export function storageOptionsFromConfig(config: {
  S3_ENDPOINT?: string | undefined;
  S3_REGION: string;
  S3_BUCKET: string;
  S3_ACCESS_KEY_ID?: string | undefined;
  S3_SECRET_ACCESS_KEY?: string | undefined;
  S3_FORCE_PATH_STYLE: boolean;
  S3_CONNECT_TIMEOUT_MS?: number;
  S3_REQUEST_TIMEOUT_MS?: number;
  S3_MAX_ATTEMPTS?: number;
  S3_MAX_SOCKETS?: number;
  DEPENDENCY_CIRCUIT_OPEN_MS?: number;
}): StorageOptions {
  return {
    bounds: {
      connectTimeoutMs: config.S3_CONNECT_TIMEOUT_MS ?? DEFAULT_STORAGE_BOUNDS.connectTimeoutMs,
      socketIdleTimeoutMs: config.S3_REQUEST_TIMEOUT_MS ?? DEFAULT_STORAGE_BOUNDS.socketIdleTimeoutMs,
      maxAttempts: config.S3_MAX_ATTEMPTS ?? DEFAULT_STORAGE_BOUNDS.maxAttempts,
      maxSockets: config.S3_MAX_SOCKETS ?? DEFAULT_STORAGE_BOUNDS.maxSockets,
      circuitOpenMs: config.DEPENDENCY_CIRCUIT_OPEN_MS ?? DEFAULT_STORAGE_BOUNDS.circuitOpenMs,
    },
    endpoint: config.S3_ENDPOINT,
    region: config.S3_REGION,
    bucket: config.S3_BUCKET,
    ...(config.S3_ACCESS_KEY_ID && config.S3_SECRET_ACCESS_KEY
      ? { credentials: { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY } }
      : {}),
    forcePathStyle: config.S3_FORCE_PATH_STYLE,
  };
}

/** A development or test store reached with static keys and path-style addresses (MinIO, s3rver). */
export function keyedStoreOptions(store: {
  endpoint?: string | undefined;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
}): StorageOptions {
  return {
    ...(store.endpoint ? { endpoint: store.endpoint } : {}),
    region: store.region,
    bucket: store.bucket,
    credentials: { accessKeyId: store.accessKeyId, secretAccessKey: store.secretAccessKey },
    forcePathStyle: true,
  };
}

/**
 * Idle-socket rather than whole-request timeouts: an 8 MiB part on a slow link may take long,
 * a socket that says nothing for the bound is dead or partitioned either way.
 */
function boundedHandler(bounds: StorageBounds): NodeHttpHandler {
  const agent = { keepAlive: true, maxSockets: bounds.maxSockets };
  return new NodeHttpHandler({
    connectionTimeout: bounds.connectTimeoutMs,
    socketTimeout: bounds.socketIdleTimeoutMs,
    httpAgent: new HttpAgent(agent),
    httpsAgent: new HttpsAgent(agent),
  });
}

export function createS3Client(options: StorageOptions): S3Client {
  const bounds = options.bounds ?? DEFAULT_STORAGE_BOUNDS;
  const client = new S3Client({
    requestHandler: boundedHandler(bounds),
    maxAttempts: bounds.maxAttempts,
    region: options.region,
    ...(options.endpoint ? { endpoint: options.endpoint } : {}),
    forcePathStyle: options.forcePathStyle,
    // Unset: the SDK resolves them itself, on first use, from its default chain.
    ...(options.credentials ? { credentials: options.credentials } : {}),
    // S3-compatible stores (MinIO, s3rver) do not all accept the SDK's default CRC32 checksums.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  useContentMd5ForDeleteObjects(client);
  if (bounds.circuitOpenMs > 0) failFastWhenUnreachable(client, options.endpoint ?? 'S3', bounds.circuitOpenMs);
  return client;
}

/**
 * Every attempt of every command (lib-storage's uploads too) goes through a circuit breaker,
 * inside the SDK's retries: once one attempt finds the store unreachable, the retry and every
 * other call fail at once (CircuitOpenError is not retried) instead of each waiting out the
 * socket timeout again.
 */
function failFastWhenUnreachable(client: S3Client, endpoint: string, openMs: number): void {
  const breaker = createCircuitBreaker({
    name: `object store (${endpoint})`,
    dependency: 'object-store',
    isOutage: isStoreUnreachable,
    openMs,
  });
  client.middlewareStack.add((next) => (args) => breaker.run(() => next(args)), {
    step: 'finalizeRequest',
    priority: 'low',
    name: 'circuitBreaker',
  });
}

/** Answers whether the bucket is reachable; used by readiness checks. */
export async function bucketReachable(client: S3Client, bucket: string): Promise<boolean> {
  try {
    await client.send(new HeadBucketCommand({ Bucket: bucket }));
    return true;
  } catch {
    return false;
  }
}

/** Creates the bucket unless it exists (development stores and tests; production provisions it). */
export async function ensureBucket(client: S3Client, bucket: string): Promise<void> {
  if (await bucketReachable(client, bucket)) return;
  try {
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
  } catch (error) {
    const name = (error as { name?: string }).name;
    if (name !== 'BucketAlreadyOwnedByYou' && name !== 'BucketAlreadyExists') throw error;
  }
}

/** The store did not answer: a timeout (the bounded handler's TimeoutError), a network failure, an open circuit. */
function isStoreUnreachable(error: unknown): boolean {
  if (error instanceof CircuitOpenError) return true;
  return (error as { name?: unknown } | null)?.name === 'TimeoutError' || isNetworkFailure(error);
}

/**
 * The store cannot serve right now: it is unreachable, or answered 5xx (SlowDown,
 * ServiceUnavailable, InternalError) past the retries.
 */
export function isStorageUnavailable(error: unknown): boolean {
  const status = (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode ?? 0;
  return isStoreUnreachable(error) || status >= 500;
}
