import { setTimeout as sleep } from 'node:timers/promises';
import { UnrecoverableError } from 'bullmq';
import {
  presentMessage,
  type MessageResponse,
  type WebhookDeliveryPayload,
  type WebhookDeliveryResult,
} from '@switchboard/contracts';
import { createBatcher } from '@switchboard/batching';
import {
  findDeliveryKeyHolder,
  findMessageById,
  isRowError,
  findWebhookById,
  storeWebhookMessages,
  type Pool,
  type StoredMessage,
  type WebhookDeliveryMessage,
  type WebhookMessageWrite,
} from '@switchboard/db';
import type { JobContext, JobHandler } from '@switchboard/queue';
import type { Storage } from '@switchboard/storage';
import { discardBody, loadBody } from './body.ts';
import { publishMessageCreates, type EventStreamOptions } from './events.ts';
import { createLimiter } from './limit.ts';
import type { DeliveryMetrics } from './metrics.ts';
import { renderDelivery, UndeliverableError, type Rendering } from './render.ts';
import type { RedisClient } from '@switchboard/redis';

/** Test-only pause (WEBHOOK_TEST_DELAY_*), to kill a worker at a known point of a delivery. */
export interface TestDelay {
  ms: number;
  at: 'before-store' | 'after-store';
}

export interface DeliveryDeps {
  pool: Pool;
  /** A request-path client, for the events stream. */
  redis: RedisClient;
  storage: Storage;
  events: EventStreamOptions;
  testDelay?: TestDelay | undefined;
  metrics?: DeliveryMetrics;
}

/** The two writes of a delivery, each batched across the jobs running at once. */
interface Writes {
  store(message: WebhookDeliveryMessage): Promise<WebhookMessageWrite>;
  /** The new entry's id, or null when an earlier attempt appended it. */
  publish(message: MessageResponse): Promise<string | null>;
}

/**
 * Jobs finishing the same step in the same event loop round share one insert statement (one
 * commit) and one events script, which saves the database much of its CPU per delivery
 * (packages/bench/README.md#webhook-worker). Each delivery still gets its own outcome, as it
 * would alone.
 */
const BATCHING = { maxBatch: 100, maxInFlight: 2 };

function batchedWrites(deps: DeliveryDeps): Writes {
  return {
    store: createBatcher((messages: WebhookDeliveryMessage[]) => storeWebhookMessages(deps.pool, messages), {
      ...BATCHING,
      isItemError: isRowError,
    }),
    publish: createBatcher(
      (messages: MessageResponse[]) => publishMessageCreates(deps.redis, deps.events, messages),
      BATCHING,
    ),
  };
}

type RenderedDelivery = Extract<Rendering, { kind: 'message' }>;
type RenderedEmbed = RenderedDelivery['message']['embeds'][number];

/**
 * Embeds as stored and presented: `type: 'rich'`, and colour 0 when none was set
 * (docs/decisions.md#fluxer-webhook-messages).
 */
function storedEmbed(embed: RenderedEmbed): RenderedEmbed & { type: 'rich'; color: number } {
  return { type: 'rich', ...embed, color: embed.color ?? 0 };
}

async function pause(deps: DeliveryDeps, at: TestDelay['at']): Promise<void> {
  if (deps.testDelay && deps.testDelay.ms > 0 && deps.testDelay.at === at) await sleep(deps.testDelay.ms);
}

/** Renders, or fails the job for good: a body the gateway accepted does not get better by retrying. */
function render(payload: WebhookDeliveryPayload, body: unknown): Rendering {
  try {
    return renderDelivery(payload, body);
  } catch (error) {
    if (error instanceof UndeliverableError) throw new UnrecoverableError(error.message);
    throw error;
  }
}

/** The message under the fixed id; the worker's statement adds the webhook's current name, avatar and channel. */
function newMessage(payload: WebhookDeliveryPayload, { message }: RenderedDelivery): WebhookDeliveryMessage {
  return {
    id: payload.messageId,
    webhookId: payload.webhookId,
    username: message.username ?? null,
    avatarUrl: message.avatar_url ?? null,
    content: message.content,
    embeds: message.embeds.map(storedEmbed),
    flags: message.flags ?? 0,
    deliveryId: payload.deliveryId,
  };
}

/** Appends MESSAGE_CREATE for the stored row (at most once per message id) and reports it stored. */
async function announce(writes: Writes, stored: StoredMessage, context: JobContext): Promise<WebhookDeliveryResult> {
  const entryId = await writes.publish(presentMessage(stored));
  if (entryId === null)
    context.logger.info({ messageId: stored.id }, 'MESSAGE_CREATE already appended by an earlier attempt');
  return { outcome: 'stored', messageId: stored.id };
}

/**
 * The claim-checked body is gone. Only an earlier attempt of this job deletes it, once done
 * with it (the gateway keeps the body of an enqueue it could not tell about, and the sweep
 * leaves an unfinished or failed job's), and that attempt's worker died before the job
 * completed: finish from what it left, its stored message, or its being a duplicate of the
 * delivery that holds its key. With neither, it posted nothing (an ignored event, a channel
 * deleted), and neither does this attempt: a job never fails for good for a deleted body.
 */
async function finishWithoutBody(
  deps: DeliveryDeps,
  writes: Writes,
  payload: WebhookDeliveryPayload,
  context: JobContext,
): Promise<WebhookDeliveryResult> {
  const stored = await findMessageById(deps.pool, payload.messageId);
  if (stored) return announce(writes, stored, context);
  if (!(await findWebhookById(deps.pool, payload.webhookId))) return { outcome: 'webhook_gone' };
  if (payload.deliveryId !== undefined) {
    const holder = await findDeliveryKeyHolder(deps.pool, payload.webhookId, payload.deliveryId);
    if (holder !== null && holder !== payload.messageId) return { outcome: 'duplicate', duplicateOf: holder };
  }
  context.logger.warn(
    { messageId: payload.messageId },
    'delivery body gone with nothing stored: an earlier attempt finished with it, nothing posted',
  );
  return { outcome: 'body_gone' };
}

async function store(
  deps: DeliveryDeps,
  writes: Writes,
  payload: WebhookDeliveryPayload,
  rendering: RenderedDelivery,
  context: JobContext,
): Promise<WebhookDeliveryResult> {
  await pause(deps, 'before-store');
  const write = await writes.store(newMessage(payload, rendering));
  if ('webhookGone' in write) {
    context.logger.info({ webhookId: payload.webhookId }, 'webhook deleted before delivery, nothing posted');
    return { outcome: 'webhook_gone' };
  }
  if ('channelGone' in write) {
    context.logger.info({ webhookId: payload.webhookId }, 'channel deleted before delivery, nothing posted');
    return { outcome: 'channel_gone' };
  }
  if ('duplicateOf' in write) {
    context.logger.info(
      { webhookId: payload.webhookId, duplicateOf: write.duplicateOf },
      'duplicate webhook delivery dropped',
    );
    return { outcome: 'duplicate', duplicateOf: write.duplicateOf };
  }
  if (write.inserted) deps.metrics?.stored(payload.format, payload.messageId);
  else context.logger.info({ messageId: payload.messageId }, 'message stored by an earlier attempt');
  await pause(deps, 'after-store');
  return announce(writes, write.stored, context);
}

/**
 * Claim-checked bodies (over WEBHOOK_INLINE_BODY_MAX_BYTES, up to 25 MiB, several times that
 * once parsed) are delivered this many at a time, whatever WORKER_CONCURRENCY is: the
 * concurrency that makes small deliveries fast must not multiply the worker's memory.
 */
const STORED_BODIES_AT_ONCE = 4;

/**
 * One delivery, idempotent by the message id fixed at enqueue: the insert does nothing when an
 * earlier attempt stored the message, and the event is appended at most once. A delivery whose
 * dedupe key another delivery holds, or whose webhook was deleted since the request, posts
 * nothing (and the job completes).
 */
export function deliveryHandler(deps: DeliveryDeps): JobHandler<WebhookDeliveryPayload> {
  const deliver = deliverWith(deps, batchedWrites(deps));
  const storedBodies = createLimiter(STORED_BODIES_AT_ONCE);
  return (payload, context) =>
    payload.body.kind === 'stored' ? storedBodies(() => deliver(payload, context)) : deliver(payload, context);
}

function deliverWith(deps: DeliveryDeps, writes: Writes): JobHandler<WebhookDeliveryPayload> {
  return async (payload, context): Promise<WebhookDeliveryResult> => {
    const body = await loadBody(deps.storage, payload.body).catch((error: unknown) => {
      if (error instanceof SyntaxError) throw new UnrecoverableError('the delivery body is not JSON');
      throw error;
    });
    if (!body.found) return finishWithoutBody(deps, writes, payload, context);
    const rendering = render(payload, body.value);
    const result =
      rendering.kind === 'ignored'
        ? ({ outcome: 'ignored', reason: rendering.reason } as const)
        : await store(deps, writes, payload, rendering, context);
    if (result.outcome === 'ignored')
      context.logger.info({ webhookId: payload.webhookId, reason: result.reason }, 'delivery posts nothing');
    // Inline bodies have nothing to delete (and reading context.logger makes a child logger).
    if (payload.body.kind === 'stored') await discardBody(deps.storage, payload.body, context.logger);
    return result;
  };
}
