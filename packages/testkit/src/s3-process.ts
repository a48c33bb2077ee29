import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from '@switchboard/devstack';
import { spawnNode, type NodeProcess } from './processes.ts';

const S3_SERVER = fileURLToPath(new URL('./s3-server.ts', import.meta.url));

export interface S3Process {
  pid: number;
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Settles when the process has exited. */
  exited: Promise<unknown>;
  /** SIGKILL: its data is a test's, thrown away with its folder. */
  stop(): Promise<void>;
}

/**
 * The embedded S3 store (s3rver, as `npm start` runs it) in a process of its own, data in `dir`.
 * Not in the caller's: every test file's S3 calls would otherwise share the test runner's event
 * loop with its own work, and a scenario could not freeze the store without freezing itself. The
 * store stops when its IPC channel closes, so it does not outlive a runner that was killed.
 */
export async function startS3Process(dir: string): Promise<S3Process> {
  const server: NodeProcess = spawnNode(S3_SERVER, { env: {}, args: [dir], ipc: true, cwd: REPO_ROOT });
  const [message] = (await Promise.race([once(server.child, 'message'), server.exit.then(() => [undefined])])) as [
    { endpoint?: string; accessKeyId?: string; secretAccessKey?: string } | undefined,
  ];
  if (!message?.endpoint || !message.accessKeyId || !message.secretAccessKey) {
    await server.stop('SIGKILL');
    throw new Error(`the S3 store did not start: ${server.output().trim()}`);
  }
  return {
    pid: server.child.pid!,
    endpoint: message.endpoint,
    accessKeyId: message.accessKeyId,
    secretAccessKey: message.secretAccessKey,
    exited: server.exit,
    stop: async () => {
      await server.stop('SIGKILL');
    },
  };
}
