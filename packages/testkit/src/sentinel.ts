import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@switchboard/devstack';
import { askRedisServer } from './redis-probe.ts';
import { waitFor } from './wait.ts';

export const SENTINEL_MASTER_NAME = 'switchboard';

export interface RunningSentinels {
  /** REDIS_SENTINELS: every sentinel's `host:port`. */
  sentinels: Array<{ host: string; port: number }>;
  /** The port of the server that is master now, as every sentinel sees it (waits for them to agree). */
  masterPort(): Promise<number>;
  /** SIGKILLs the master now (its replica is then promoted). */
  killMaster(): Promise<number>;
  /** Sends `signal` to every live server that is not the master now (SIGSTOP, SIGCONT: a replica that falls silent). */
  signalReplicas(signal: NodeJS.Signals): Promise<void>;
  stop(): Promise<void>;
}

interface Server {
  port: number;
  child: ChildProcess;
}

/**
 * Real Redis HA on loopback: a master, `replicas` replicas of it (one unless told) and three
 * sentinels (`redis-server --sentinel`) watching it with a quorum of two, quick to decide (1 s
 * down, 5 s failover), in a temporary folder; every process killed by stop().
 */
export async function startSentinels({ replicas = 1 }: { replicas?: number } = {}): Promise<RunningSentinels> {
  const folder = await mkdtemp(join(tmpdir(), 'sb-sentinel-'));
  const servers: Server[] = [];
  const start = async (args: string[]): Promise<Server> => {
    const port = await freePort();
    const child = spawn('redis-server', [...args, '--port', String(port), '--bind', '127.0.0.1'], {
      cwd: folder,
      stdio: 'ignore',
    });
    const server = { port, child };
    servers.push(server);
    await waitFor(() => ping(port), 10_000, 50);
    return server;
  };
  const stop = async () => {
    for (const { child } of servers) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await rm(folder, { recursive: true, force: true });
  };
  try {
    const common = ['--save', '', '--appendonly', 'no'];
    const master = await start([...common, '--dir', folder, '--dbfilename', 'master.rdb']);
    const copies: Server[] = [];
    for (let index = 0; index < replicas; index += 1) {
      copies.push(
        await start([
          ...common,
          '--dir',
          folder,
          '--dbfilename',
          `replica-${index}.rdb`,
          '--replicaof',
          '127.0.0.1',
          String(master.port),
        ]),
      );
    }
    const sentinels: Server[] = [];
    for (let index = 0; index < 3; index += 1) {
      const file = join(folder, `sentinel-${index}.conf`);
      await writeFile(
        file,
        [
          `sentinel monitor ${SENTINEL_MASTER_NAME} 127.0.0.1 ${master.port} 2`,
          `sentinel down-after-milliseconds ${SENTINEL_MASTER_NAME} 1000`,
          `sentinel failover-timeout ${SENTINEL_MASTER_NAME} 5000`,
          '',
        ].join('\n'),
      );
      sentinels.push(await start([file, '--sentinel']));
    }
    const masterPortOf = async (sentinel: Server) => {
      const address = await askRedisServer(
        sentinel.port,
        (client) =>
          client.call('SENTINEL', 'get-master-addr-by-name', SENTINEL_MASTER_NAME) as Promise<[string, string]>,
      );
      return Number(address[1]);
    };
    // Sentinels learn of a failover from its leader a moment apart (hello messages): the master
    // is the one they all name, so a client that asked the leader and one sentinel that has not
    // heard yet never disagree in a test.
    const masterPort = async () => {
      let agreed = 0;
      await waitFor(
        async () => {
          const ports = await Promise.all(sentinels.map(masterPortOf));
          agreed = ports[0]!;
          return ports.every((port) => port === agreed);
        },
        15_000,
        100,
      );
      return agreed;
    };
    // The replicas have synced and every sentinel knows them and the others: a failover can happen.
    for (const copy of copies) {
      await waitFor(async () => (await info(copy.port, 'replication')).includes('master_link_status:up'), 15_000, 100);
    }
    const known = `slaves=${replicas},sentinels=3`;
    for (const sentinel of sentinels) {
      await waitFor(async () => (await info(sentinel.port, 'sentinel')).includes(known), 20_000, 100);
    }
    return {
      sentinels: sentinels.map(({ port }) => ({ host: '127.0.0.1', port })),
      masterPort,
      killMaster: async () => {
        const port = await masterPort();
        const server = servers.find((each) => each.port === port)!;
        server.child.kill('SIGKILL');
        return port;
      },
      signalReplicas: async (signal) => {
        const port = await masterPort();
        for (const copy of copies) if (copy.port !== port && copy.child.exitCode === null) copy.child.kill(signal);
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function ping(port: number): Promise<boolean> {
  return (await info(port, 'server').catch(() => '')) !== '';
}

function info(port: number, section: string): Promise<string> {
  return askRedisServer(port, (client) => client.info(section));
}
