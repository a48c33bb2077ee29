import { mkdir } from 'node:fs/promises';
import { migrate } from '@switchboard/db';
import { SERVICE_NODE_FLAGS, serviceEnvFor } from '@switchboard/runtime';
import type { DevstackConfig } from './config.ts';
import { removeEnvFile, writeEnvFile } from './env-file.ts';
import { acquireLock } from './lock.ts';
import type { DataPaths } from './paths.ts';
import { waitForReady } from './ready.ts';
import type { AppService } from './services.ts';
import { resolveStores } from './stores.ts';
import type { Supervisor } from './supervisor.ts';

const LIFELINE = new URL('./lifeline.ts', import.meta.url).href;

/**
 * Stores, then migrations, then the env file for the CLI, then every app process; returns
 * once the gateway answers /readyz. Every resource is registered with the supervisor as soon
 * as it exists, so a failure or Ctrl-C at any point stops exactly what was started.
 */
export async function bringUp(
  supervisor: Supervisor,
  config: DevstackConfig,
  paths: DataPaths,
  apps: AppService[],
): Promise<void> {
  await mkdir(paths.root, { recursive: true });
  supervisor.onStop(await acquireLock(paths.lockFile));
  // Left behind by a run that was killed; its URLs point at stores that are gone.
  await removeEnvFile(paths.envFile);
  const stores = await resolveStores(supervisor, config, paths);
  if (supervisor.isStopping()) return;

  const { applied } = await migrate(config.DATABASE_DIRECT_URL ?? stores.DATABASE_URL);
  supervisor.log(applied.length > 0 ? `applied migrations: ${applied.join(', ')}` : 'database schema is up to date');
  await writeEnvFile(paths.envFile, stores);
  supervisor.onStop(() => removeEnvFile(paths.envFile));

  const [gateway] = apps.map((app, index) => {
    // A preferred worker id each, counting from 1, so ids are easy to trace to a process; every
    // process leases its id in Redis all the same (another free one when it is taken).
    // The first app is the gateway (discoverServices); its process count is the stack's to give.
    const gatewayOnly: Record<string, string> = index === 0 ? { GATEWAY_PROCESSES: config.GATEWAY_PROCESSES } : {};
    const env = { ...serviceEnvFor(process.env), ...stores, SNOWFLAKE_WORKER_ID: String(index + 1), ...gatewayOnly };
    const running = supervisor.startApp({
      name: app.name,
      command: process.execPath,
      args: [...SERVICE_NODE_FLAGS, '--import', LIFELINE, app.entry],
      env,
    });
    supervisor.log(`started ${app.name} (pid ${running.current().pid}, preferred snowflake worker id ${index + 1})`);
    return running;
  });
  if (!gateway) throw new Error('no gateway to start');

  // A gateway that exits meanwhile is restarted, so only the time limit ends the wait.
  await waitForReady(
    `http://${probeHost(config.HOST)}:${config.PORT}/readyz`,
    config.DEVSTACK_READY_TIMEOUT_MS,
    supervisor.isStopping,
  );
  if (supervisor.isStopping()) return;
  const baseUrl = `http://localhost:${config.PORT}`;
  supervisor.log(`Switchboard is ready at ${baseUrl} (discovery document: ${baseUrl}/v1/.well-known/service)`);
  supervisor.log(`create the first admin key with: npm run cli -- admin create --name ops --acl '*'`);
  supervisor.log(`connection settings for the CLI are in ${paths.envFile}; Ctrl-C stops everything`);
}

/** Where to reach a server bound to `host`: loopback for the wildcard addresses. */
function probeHost(host: string | undefined): string {
  if (!host || host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
