import { Queue } from 'bullmq';
import type { RedisClient } from '@switchboard/redis';
import { bullPrefix } from './options.ts';

/**
 * A plain BullMQ Queue on the deployment's key layout, for whoever reads job states or counts
 * (the sweeps, the fault suite, tests) rather than enqueuing through a producer. The prefix is
 * derived here, so no caller can build one a cluster would refuse. Closing it leaves the
 * connection open: the connection stays its owner's.
 */
export function bullQueue(name: string, connection: RedisClient, redisPrefix: string): Queue {
  return new Queue(name, { connection, prefix: bullPrefix(redisPrefix, { queue: name, connection }) });
}
