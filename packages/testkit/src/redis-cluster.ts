import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '@switchboard/devstack';
import { spawnProgram } from './processes.ts';
import { askRedisServer } from './redis-probe.ts';
import { waitFor } from './wait.ts';

export interface RunningRedisCluster {
  /** REDIS_CLUSTER_NODES: every master's `host:port`. */
  nodes: Array<{ host: string; port: number }>;
  /** `host:port,host:port,…`, as REDIS_CLUSTER_NODES is written. */
  nodesVariable: string;
  /** Sends `signal` to the node on `port` (SIGSTOP, SIGCONT: a node that falls silent). */
  signal(port: number, signal: NodeJS.Signals): void;
  stop(): Promise<void>;
}

/**
 * A real Redis Cluster on loopback: three masters (`redis-server --cluster-enabled yes`, no
 * replicas) joined by `redis-cli --cluster create`, in a temporary folder, ready once every
 * node reports `cluster_state:ok`; every process killed by stop(). Each node's cluster bus
 * gets a free port of its own (the default, port + 10000, may be taken or out of range). The
 * nodes serve their slots while another is down (no full coverage required), so a test can
 * silence one and use the others.
 */
export async function startRedisCluster({ masters = 3 }: { masters?: number } = {}): Promise<RunningRedisCluster> {
  const folder = await mkdtemp(join(tmpdir(), 'sb-cluster-'));
  const children: ChildProcess[] = [];
  const stop = async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await rm(folder, { recursive: true, force: true });
  };
  try {
    const ports: number[] = [];
    for (let index = 0; index < masters; index += 1) {
      const [port, busPort] = [await freePort(), await freePort()];
      const args = [
        ...['--port', String(port), '--cluster-port', String(busPort), '--bind', '127.0.0.1'],
        ...['--cluster-enabled', 'yes', '--cluster-config-file', `nodes-${index}.conf`],
        ...['--cluster-node-timeout', '2000', '--cluster-require-full-coverage', 'no'],
        ...['--save', '', '--appendonly', 'no', '--dir', folder],
      ];
      children.push(spawn('redis-server', args, { cwd: folder, stdio: 'ignore' }));
      ports.push(port);
    }
    for (const port of ports) await waitFor(() => clusterInfo(port).then(Boolean), 10_000, 50);
    const create = spawnProgram('redis-cli', {
      env: {},
      args: [
        '--cluster',
        'create',
        ...ports.map((port) => `127.0.0.1:${port}`),
        '--cluster-replicas',
        '0',
        '--cluster-yes',
      ],
    });
    if ((await create.exit).code !== 0)
      throw new Error(`redis-cli --cluster create failed: ${create.output().slice(-500)}`);
    for (const port of ports) {
      await waitFor(async () => (await clusterInfo(port)).includes('cluster_state:ok'), 20_000, 100);
    }
    const nodes = ports.map((port) => ({ host: '127.0.0.1', port }));
    const signal = (port: number, signal: NodeJS.Signals) => {
      const child = children[ports.indexOf(port)];
      if (!child) throw new Error(`no node of this cluster listens on ${port}`);
      child.kill(signal);
    };
    return { nodes, nodesVariable: nodes.map(({ host, port }) => `${host}:${port}`).join(','), signal, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** CLUSTER INFO of one node; empty while it is still starting. */
async function clusterInfo(port: number): Promise<string> {
  return askRedisServer(port, async (client) => (await client.call('CLUSTER', 'INFO')) as string).catch(() => '');
}
