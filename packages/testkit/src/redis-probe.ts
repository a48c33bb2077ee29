import { Redis } from 'ioredis';

/**
 * Asks the redis-server on loopback `port` one thing over a connection of its own, which makes
 * one attempt and is closed after: a server still starting refuses it, and the caller, polling,
 * takes the rejection as its answer.
 */
export async function askRedisServer<T>(port: number, ask: (client: Redis) => Promise<T>): Promise<T> {
  const client = new Redis({
    port,
    host: '127.0.0.1',
    lazyConnect: true,
    maxRetriesPerRequest: 1,
    retryStrategy: () => null,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    return await ask(client);
  } finally {
    client.disconnect();
  }
}
