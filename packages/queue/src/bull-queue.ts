import { Queue } from 'bullmq';
import type { RedisClient } from '@switchboard/redis';
import { bullPrefix } from './options.ts';

/**
 * A plain BullMQ Queue on the deployment's key layout, for whoever reads job states or counts
 * (the sweeps, the fault suite, tests) rather than enqueuing through a producer. The prefix is
 * derived here, so no caller can build one a cluster would refuse. Closing it leaves the
 * connection open: the connection stays its owner's, and so do its errors.
 */
export function bullQueue(name: string, connection: RedisClient, redisPrefix: string): Queue {
  const queue = new Queue(name, { connection, prefix: bullPrefix(redisPrefix, { queue: name, connection }) });
  // BullMQ repeats every error of the connection on each Queue made on it, and prints each one
  // to stderr as a raw stack when the Queue has no listener. The connection's owner logs them
  // already (createRedis), once, in the process's log format.
  queue.on('error', () => {});
  return queue;
}
