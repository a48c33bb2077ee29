import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { Queue } from 'bullmq';
import { afterAll, beforeAll } from 'vitest';
import type { Redis } from 'ioredis';
import { generateUserToken, generateWebhookToken, hashCredential } from '@switchboard/auth';
import { LIMITS, parseStreamEvent, QUEUES, type StreamEvent } from '@switchboard/contracts';
import {
  ChannelType,
  createPool,
  createWebhookWithinLimits,
  insertChannels,
  insertGuild,
  insertMembers,
  insertUsers,
  insertUserTokens,
  withTransaction,
  type Pool,
} from '@switchboard/db';
import { createLogger } from '@switchboard/logger';
import { bullPrefix, createProducer, type Producer } from '@switchboard/queue';
import { closeRedis, createRedis } from '@switchboard/redis';
import { createSnowflakeGenerator } from '@switchboard/snowflake';
import { createStorage, storageOptionsFromConfig, type Storage } from '@switchboard/storage';
import { waitFor, type TestEnvironment } from '@switchboard/testkit';
import { createApp } from '../src/index.ts';
import { gatewayConfig, REPO_ROOT } from './helpers.ts';

/** Fixture ids: worker 1021, apart from gateways (0) and other fixtures (1022, 1023). */
export const fixtureIds = createSnowflakeGenerator(1021);

export const WORKER_MAIN = fileURLToPath(new URL('../../webhook-worker/src/main.ts', import.meta.url));

export interface ExecuteGateway {
  url: string;
  pool: Pool;
  redis: Redis;
  storage: Storage;
  producer: Producer;
  close(): Promise<void>;
}

/**
 * A real gateway (createApp) with an explicit producer, so its `?wait=true` listener is closed
 * with it. Rate limits stay on unless `extra` turns them off.
 */
export async function startExecuteGateway(environment: TestEnvironment, extra: Record<string, string> = {}): Promise<ExecuteGateway> {
  const config = gatewayConfig(environment, { TRUSTED_PROXY_HOPS: '1', ...extra });
  const pool = createPool({ connectionString: config.DATABASE_URL, max: 4 });
  const redis = createRedis(config.REDIS_URL, { role: 'client' });
  await once(redis, 'ready');
  const storage = createStorage(storageOptionsFromConfig(config));
  const logger = createLogger('gateway-test', 'silent');
  const producer = createProducer({ connection: redis, redisPrefix: config.REDIS_PREFIX });
  const server: Server = createApp({ config, logger, pool, redis, storage, producer }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    pool,
    redis,
    storage,
    producer,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await producer.close();
      await Promise.all([pool.end(), closeRedis(redis)]);
      storage.close();
    },
  };
}

export interface SpawnedWorker {
  child: ChildProcess;
  output(): string;
  /** SIGTERM and wait for the exit. */
  stop(): Promise<void>;
  /** SIGKILL: no shutdown, the active job's lock is left to expire. */
  kill(): Promise<void>;
}

/** `node services/webhook-worker/src/main.ts` on this file's stores; resolves once it takes jobs. */
export async function spawnWebhookWorker(environment: TestEnvironment, extra: Record<string, string> = {}): Promise<SpawnedWorker> {
  const child = spawn(process.execPath, [WORKER_MAIN], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', ...environment.processEnv({ LOG_LEVEL: 'info', ...extra }) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = once(child, 'exit');
  const stopWith = async (signal: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    await exited;
  };
  await waitFor(async () => {
    if (child.exitCode !== null) throw new Error(`webhook worker exited: ${output}`);
    return output.includes('"msg":"worker started"');
  }, 20_000);
  return { child, output: () => output, stop: () => stopWith('SIGTERM'), kill: () => stopWith('SIGKILL') };
}

export interface WebhookFixture {
  guildId: string;
  channelId: string;
  ownerId: string;
  /** The owner's user token (a member of the guild), to read messages back. */
  ownerToken: string;
  webhookId: string;
  token: string;
  name: string;
}

/** A guild, its owner, a text channel and one webhook in it (optionally with a secret). */
export async function createWebhookFixture(pool: Pool, options: { secret?: string; name?: string } = {}): Promise<WebhookFixture> {
  const ownerId = fixtureIds.next();
  const guildId = fixtureIds.next();
  const channelId = fixtureIds.next();
  const webhookId = fixtureIds.next();
  const token = generateWebhookToken();
  const ownerToken = generateUserToken(ownerId);
  const name = options.name ?? 'Execute Hook';
  await withTransaction(pool, async (db) => {
    await insertUsers(db, [{ id: ownerId, username: `owner_${ownerId.slice(-8)}` }]);
    await insertUserTokens(db, [{ tokenHash: hashCredential(ownerToken), userId: ownerId, kind: 'user' }]);
    await insertGuild(db, { id: guildId, name: `guild ${guildId}`, ownerId });
    await insertMembers(db, guildId, [{ userId: ownerId }]);
    await insertChannels(db, [{ id: channelId, guildId, type: ChannelType.GuildText, name: 'general', position: 0 }]);
  });
  const limits = { perChannel: LIMITS.webhooks.perChannel, perGuild: LIMITS.webhooks.perGuild };
  await createWebhookWithinLimits(pool, { id: webhookId, guildId, channelId, creatorId: ownerId, name, avatarHash: null, token }, limits);
  if (options.secret) await pool.query('UPDATE webhooks SET secret = $2 WHERE id = $1', [webhookId, options.secret]);
  return { guildId, channelId, ownerId, ownerToken, webhookId, token, name };
}

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, when there is one. */
  json: any;
}

/** POST `body` (JSON unless a string or Buffer is given with its own Content-Type). */
export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const raw = typeof body === 'string' || Buffer.isBuffer(body);
  const response = await fetch(url, {
    method: 'POST',
    headers: raw ? headers : { 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : raw ? (body as string | Buffer) : JSON.stringify(body),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

export function executeUrl(gateway: { url: string }, hook: Pick<WebhookFixture, 'webhookId' | 'token'>, suffix = ''): string {
  return `${gateway.url}/v1/webhooks/${hook.webhookId}/${hook.token}${suffix}`;
}

export interface StoredRow {
  id: string;
  content: string;
  embeds: any[];
  webhookName: string;
  webhookAvatarUrl: string | null;
}

/** The messages a webhook posted, oldest first. */
export async function webhookMessages(pool: Pool, webhookId: string): Promise<StoredRow[]> {
  const { rows } = await pool.query<StoredRow>(
    `SELECT id::text, content, embeds, webhook_name AS "webhookName", webhook_avatar_url AS "webhookAvatarUrl"
     FROM messages WHERE webhook_id = $1 ORDER BY id`,
    [webhookId],
  );
  return rows;
}

/** Waits until the webhook has posted `count` messages, and returns them. */
export function messagesOf(pool: Pool, webhookId: string, count = 1, timeoutMs = 10_000): Promise<StoredRow[]> {
  return waitFor(async () => {
    const rows = await webhookMessages(pool, webhookId);
    return rows.length >= count ? rows : undefined;
  }, timeoutMs);
}

/** Every entry of the events stream about `channelId`. */
export async function channelEvents(redis: Redis, redisPrefix: string, channelId: string): Promise<StreamEvent[]> {
  const entries = await redis.xrange(`${redisPrefix}:events`, '-', '+');
  return entries.map(([, fields]) => parseStreamEvent(fields)).filter((event) => event.channel_id === channelId);
}

/** The webhook-deliveries queue of this file, to look at what the worker did. */
export function deliveriesQueue(redis: Redis, redisPrefix: string): Queue {
  return new Queue(QUEUES.webhookDeliveries, { connection: redis, prefix: bullPrefix(redisPrefix) });
}

/**
 * Waits until every delivery enqueued so far was handled; returns how many failed for good.
 * Deliveries that post nothing leave no row: this is how a test knows they are done.
 */
export async function deliveriesSettled(queue: Queue, timeoutMs = 30_000): Promise<number> {
  await waitFor(async () => {
    const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized');
    return Object.values(counts).every((count) => count === 0);
  }, timeoutMs);
  return (await queue.getJobCounts('failed'))['failed'] ?? 0;
}

/** A file's gateway and webhook worker, both running from its first test to after its last. */
export interface ExecuteStack {
  gateway: ExecuteGateway;
  worker: SpawnedWorker;
}

/**
 * Call at the top of a test file: starts the gateway (rate limits off unless `gateway` says
 * otherwise) and a spawned webhook worker before the first test, stops both after the last.
 */
export function useExecuteStack(
  environment: TestEnvironment,
  extra: { gateway?: Record<string, string>; worker?: Record<string, string> } = {},
): ExecuteStack {
  const stack = {} as ExecuteStack;
  beforeAll(async () => {
    [stack.gateway, stack.worker] = await Promise.all([
      startExecuteGateway(environment, { RATE_LIMITS_ENABLED: 'false', ...extra.gateway }),
      spawnWebhookWorker(environment, extra.worker),
    ]);
  });
  afterAll(async () => {
    await stack.worker?.stop();
    await stack.gateway?.close();
  });
  return stack;
}
