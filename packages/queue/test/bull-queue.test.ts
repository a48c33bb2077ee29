import { afterEach, expect, it, vi } from 'vitest';
import { closeRedis, createRedis } from '@switchboard/redis';
import { startFaultProxy } from '@switchboard/testkit/fault-proxy';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { waitFor } from '@switchboard/testkit/wait';
import { bullQueue } from '../src/index.ts';

const environment = useTestEnvironment();

afterEach(() => {
  vi.restoreAllMocks();
});

it("leaves a dropped connection's errors to the connection's owner, printing nothing", async () => {
  const target = new URL(environment.redisUrl);
  const proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port) });
  const redis = createRedis(proxy.urlFor(environment.redisUrl), { role: 'worker', name: 'bull-queue-test' });
  const errors: string[] = [];
  redis.on('error', (error: Error) => errors.push(error.message));
  const queue = bullQueue('bull-queue-test', redis, environment.redisPrefix);
  const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
  try {
    await queue.getJobCounts('waiting');
    proxy.setMode('cut');
    await waitFor(async () => errors.length > 0);
    proxy.setMode('pass');
    await expect(queue.getJobCounts('waiting')).resolves.toEqual({ waiting: 0 });
    // BullMQ repeats the connection's errors on the Queue; without a listener it prints each.
    expect(printed).not.toHaveBeenCalled();
  } finally {
    await queue.close();
    await closeRedis(redis);
    await proxy.close();
  }
});
