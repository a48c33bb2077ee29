import { readFile } from 'node:fs/promises';
import { request } from 'node:http';
import { availableParallelism } from 'node:os';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { QUEUES } from '@switchboard/contracts';
import { bullQueue } from '@switchboard/queue';
import { SERVICE_NODE_FLAGS } from '@switchboard/runtime';
import { childPids, isAlive, spawnService, type ServiceProcess } from '@switchboard/testkit/processes';
import { metricValue, scrapeMetrics } from '@switchboard/testkit/metrics';
import { startFaultProxy } from '@switchboard/testkit/fault-proxy';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { waitFor } from '@switchboard/testkit/wait';
import { parseGatewayConfig } from '../src/config.ts';

// GATEWAY_PROCESSES: main.ts as a primary with gateway processes sharing one port (node:cluster).
const environment = useTestEnvironment();
let gateway: ServiceProcess | undefined;

afterEach(async () => {
  await gateway?.stop('SIGKILL');
  gateway = undefined;
});

function startGateway(
  processes: number,
  options: { nodeFlags?: readonly string[]; env?: Record<string, string> } = {},
): Promise<ServiceProcess> {
  const env = environment.processEnv({
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'info',
    RATE_LIMITS_ENABLED: 'false',
    GATEWAY_PROCESSES: String(processes),
    ...options.env,
  });
  return spawnService('gateway', env, options);
}

/** The command line a process was started with (Linux). */
async function commandLine(pid: number): Promise<string[]> {
  return (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').filter((part) => part !== '');
}

/** The environment a process was started with (Linux). */
async function environmentOf(pid: number): Promise<string[]> {
  return (await readFile(`/proc/${pid}/environ`, 'utf8')).split('\0').filter((part) => part !== '');
}

/** GET on a connection of its own: the kernel picks a process for each new connection. */
function getOnNewConnection(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const sent = request(url, { agent: false, headers: { connection: 'close' } }, (answer) => {
      answer.resume();
      answer.on('end', () => resolve(answer.statusCode ?? 0));
    });
    sent.on('error', reject);
    sent.end();
  });
}

describe('GATEWAY_PROCESSES', () => {
  it('is a count, auto (one per core) or shared (one per two cores, at least one); zero is refused', () => {
    const parse = (value: string) => parseGatewayConfig({ ...environment.processEnv(), GATEWAY_PROCESSES: value });
    const auto = parse('auto');
    const shared = parse('shared');
    const three = parse('3');
    expect(auto.ok && auto.config.GATEWAY_PROCESSES).toBe(availableParallelism());
    expect(shared.ok && shared.config.GATEWAY_PROCESSES).toBe(Math.max(1, Math.floor(availableParallelism() / 2)));
    expect(three.ok && three.config.GATEWAY_PROCESSES).toBe(3);
    expect(parse('0').ok).toBe(false);
    const unset = parseGatewayConfig(environment.processEnv());
    expect(unset.ok && unset.config.GATEWAY_PROCESSES).toBe(1);
  });

  it('serves one port from two processes, and a scrape that reaches either reads both', async () => {
    gateway = await startGateway(2);
    const base = `http://127.0.0.1:${gateway.ready['port']}`;
    expect(gateway.ready['processes']).toBe(2);
    expect(await childPids(gateway.child.pid!)).toHaveLength(2);
    for (let i = 0; i < 20; i += 1) expect(await getOnNewConnection(`${base}/healthz`)).toBe(200);
    // Each process timed its share of them; the scrape, whichever process answers it, counts all twenty.
    const { samples } = await scrapeMetrics(`${base}/metrics`);
    expect(metricValue(samples, 'http_request_duration_seconds_count', { route: '/healthz', status: '200' })).toBe(20);
  });

  it('starts its processes with the service node flags, also when the primary was started without them', async () => {
    gateway = await startGateway(2, { nodeFlags: [] });
    expect(await commandLine(gateway.child.pid!)).not.toContain(SERVICE_NODE_FLAGS[0]);
    const processes = await childPids(gateway.child.pid!);
    expect(processes).toHaveLength(2);
    for (const pid of processes)
      expect(await commandLine(pid)).toEqual(expect.arrayContaining([...SERVICE_NODE_FLAGS]));
  });

  it("fixes glibc's mmap threshold for its processes unless the environment tunes malloc itself", async () => {
    gateway = await startGateway(2);
    for (const pid of await childPids(gateway.child.pid!))
      expect(await environmentOf(pid)).toContain('MALLOC_MMAP_THRESHOLD_=131072');
    await gateway.stop('SIGKILL');
    gateway = await startGateway(2, { env: { MALLOC_ARENA_MAX: '2' } });
    for (const pid of await childPids(gateway.child.pid!)) {
      const variables = await environmentOf(pid);
      expect(variables).toContain('MALLOC_ARENA_MAX=2');
      expect(variables.some((variable) => variable.startsWith('MALLOC_MMAP_THRESHOLD_='))).toBe(false);
    }
  });

  it('serves even one process from a process with the service node flags when started without them', async () => {
    gateway = await startGateway(1, { nodeFlags: [] });
    const [serving, ...others] = await childPids(gateway.child.pid!);
    expect(others).toEqual([]);
    expect(await commandLine(serving!)).toEqual(expect.arrayContaining([...SERVICE_NODE_FLAGS]));
    expect(await getOnNewConnection(`http://127.0.0.1:${gateway.ready['port']}/healthz`)).toBe(200);
  });

  it('started while Redis does not answer, waits for it and serves once it does', async () => {
    const target = new URL(environment.redisUrl);
    // Every connection refused, as while Redis is stopped or a restart is under way.
    const proxy = await startFaultProxy({ host: target.hostname, port: Number(target.port) }, 'cut');
    const starting = startGateway(2, { env: { REDIS_URL: proxy.urlFor(environment.redisUrl) } });
    try {
      // Longer than a process's start-up and the snowflake lease's own wait for Redis (5 s)
      // together: no process may give up.
      await new Promise((resolve) => setTimeout(resolve, 12_000));
      proxy.setMode('pass');
      gateway = await starting;
      expect(await getOnNewConnection(`http://127.0.0.1:${gateway.ready['port']}/healthz`)).toBe(200);
    } finally {
      gateway ??= await starting.catch(() => undefined);
      await proxy.close();
    }
  });

  it('serves one process itself when started with the service node flags', async () => {
    gateway = await startGateway(1);
    expect(await childPids(gateway.child.pid!)).toEqual([]);
    expect(await getOnNewConnection(`http://127.0.0.1:${gateway.ready['port']}/healthz`)).toBe(200);
  });

  it('reports a queue count every process reads from the one Redis once, not summed', async () => {
    const connection = new Redis(environment.redisUrl, { maxRetriesPerRequest: null });
    const queue = bullQueue(QUEUES.assetPurges, connection, environment.redisPrefix);
    try {
      await queue.add('probe', {});
      gateway = await startGateway(2);
      const { samples } = await scrapeMetrics(`http://127.0.0.1:${gateway.ready['port']}/metrics`);
      expect(metricValue(samples, 'queue_jobs', { queue: QUEUES.assetPurges, state: 'waiting' })).toBe(1);
    } finally {
      await queue.obliterate({ force: true });
      await queue.close();
      connection.disconnect();
    }
  });

  it('replaces a process that dies, and keeps answering meanwhile', async () => {
    gateway = await startGateway(2);
    const base = `http://127.0.0.1:${gateway.ready['port']}`;
    const [killed, survivor] = await childPids(gateway.child.pid!);
    process.kill(killed!, 'SIGKILL');
    // Once it is gone (its socket closed with it), every new connection reaches the survivor.
    await waitFor(async () => gateway!.stdout().includes('a gateway process ended; starting another'), 15_000);
    for (let i = 0; i < 4; i += 1) expect(await getOnNewConnection(`${base}/healthz`)).toBe(200);
    const replaced = await waitFor(async () => {
      const now = await childPids(gateway!.child.pid!);
      return now.length === 2 && !now.includes(killed!) && now;
    }, 15_000);
    expect(replaced).toContain(survivor);
    // The primary says so once the replacement listens, on the same port beside the survivor.
    await waitFor(async () => gateway!.stdout().includes('a gateway process is back'), 15_000);
    for (let i = 0; i < 4; i += 1) expect(await getOnNewConnection(`${base}/healthz`)).toBe(200);
  });

  it('stops every process on SIGTERM, each drained, and exits 0', async () => {
    gateway = await startGateway(2);
    const processes = await childPids(gateway.child.pid!);
    expect(await gateway.stop('SIGTERM')).toEqual({ code: 0, signal: null });
    expect(
      gateway
        .stdout()
        .split('\n')
        .filter((line) => line.includes('"drained":true')),
    ).toHaveLength(2);
    expect(processes.some(isAlive)).toBe(false);
  });

  it('leaves no process behind when the primary is killed', async () => {
    gateway = await startGateway(2);
    const processes = await childPids(gateway.child.pid!);
    await gateway.stop('SIGKILL');
    await waitFor(async () => !processes.some(isAlive), 15_000);
  });
});
