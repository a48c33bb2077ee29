import { type Queue, QueueEvents } from 'bullmq';
import type { QueueName } from '@switchboard/contracts';
import type { Logger } from '@switchboard/logger';
import { closeRedis, duplicateRedis, whenRedisReady, type RedisClient } from '@switchboard/redis';
import { bullPrefix } from './options.ts';
import { bullQueue } from './bull-queue.ts';

export interface QueueCache {
  /** One BullMQ Queue per queue name, on the producer's connection. */
  queueFor(name: QueueName): Queue;
  /** One event listener per queue name, created on first use. */
  eventsFor(name: QueueName): Promise<QueueEvents>;
  close(): Promise<void>;
}

interface EventsEntry {
  events: Promise<QueueEvents>;
  template: RedisClient;
}

export function createQueueCache(connection: RedisClient, redisPrefix: string, logger?: Logger): QueueCache {
  const prefixOf = (queue: QueueName) => bullPrefix(redisPrefix, { queue, connection });
  const queues = new Map<QueueName, Queue>();
  const listeners = new Map<QueueName, EventsEntry>();
  const warn = (queue: QueueName, what: string) => (error: Error) =>
    logger?.warn({ queue, reason: error.message }, what);

  /**
   * BullMQ keeps the outcome of a Queue's start (its INFO version check) for good: a Queue made
   * while Redis was silent (frozen, partitioned) fails every later call with that timeout, even
   * once the connection is back, until the process restarts. So a Queue whose start failed is
   * dropped at once, and the next call makes a fresh one on the (by then replaced) connection.
   */
  function queueFor(name: QueueName): Queue {
    let queue = queues.get(name);
    if (!queue) {
      const made = bullQueue(name, connection, redisPrefix);
      // An EventEmitter without an error listener would crash the process.
      made.on('error', warn(name, 'queue error'));
      made.waitUntilReady().catch((error: Error) => {
        if (queues.get(name) !== made) return;
        logger?.warn({ queue: name, reason: error.message }, 'queue did not start, replacing it');
        queues.delete(name);
        void made.close().catch(() => {});
      });
      queues.set(name, made);
      queue = made;
    }
    return queue;
  }

  /**
   * Listening blocks on Redis, so it gets a blocking (worker-role) connection. It starts from
   * the stream's end as read before any job it waits for is added, so no event is missed
   * however late the listener's first read is.
   */
  function startListener(name: QueueName): EventsEntry {
    // BullMQ duplicates this client for the listener; the template itself never connects.
    const template = duplicateRedis(connection, { role: 'worker', name: `${name}-events`, logger, lazyConnect: true });
    const streamKey = queueFor(name).toKey('events');
    const events = whenRedisReady(connection)
      .then(() => connection.xrevrange(streamKey, '+', '-', 'COUNT', 1))
      .then((entries) => {
        const listener = new QueueEvents(name, {
          connection: template,
          prefix: prefixOf(name),
          lastEventId: entries[0]?.[0] ?? '0-0',
        });
        listener.on('error', warn(name, 'queue events error'));
        return listener;
      });
    return { events, template };
  }

  function eventsFor(name: QueueName): Promise<QueueEvents> {
    let entry = listeners.get(name);
    if (!entry) {
      const started = startListener(name);
      listeners.set(name, started);
      // A failed start (Redis away) is tried again on the next call.
      started.events.catch(() => {
        if (listeners.get(name) === started) listeners.delete(name);
        void closeRedis(started.template);
      });
      entry = started;
    }
    return entry.events;
  }

  async function close(): Promise<void> {
    const closing = [...queues.values()].map((queue) => queue.close());
    for (const { events, template } of listeners.values()) {
      closing.push(events.then((listener) => listener.close()).finally(() => closeRedis(template)));
    }
    queues.clear();
    listeners.clear();
    await Promise.allSettled(closing);
  }

  return { queueFor, eventsFor, close };
}
