import { loadConfig } from '@switchboard/config';
import { devstackSchema, passThroughEnv } from './config.ts';
import { createLogSink } from './log.ts';
import { dataPaths, REPO_ROOT } from './paths.ts';
import { discoverServices } from './services.ts';
import { bringUp } from './stack.ts';
import { createSupervisor } from './supervisor.ts';

// `npm start`: the whole system on one machine, with embedded defaults for unset stores.

const PARENT_CHECK_MS = 1_000;
const config = loadConfig(devstackSchema, process.env, 'npm start');
const apps = await discoverServices(REPO_ROOT).catch((error: Error) => {
  process.stderr.write(`npm start: ${error.message}\n`);
  process.exit(1);
});
const width = Math.max('devstack'.length, ...apps.map((app) => app.name.length));
const logs = createLogSink(process.stdout, Boolean(process.stdout.isTTY) && !config.NO_COLOR, width);
const supervisor = createSupervisor({
  logs,
  cwd: REPO_ROOT,
  env: passThroughEnv(config),
  stopTimeoutMs: config.DEVSTACK_STOP_TIMEOUT_MS,
  restartBackoff: {
    initialDelayMs: config.DEVSTACK_RESTART_INITIAL_DELAY_MS,
    maxDelayMs: config.DEVSTACK_RESTART_MAX_DELAY_MS,
    resetAfterMs: config.DEVSTACK_RESTART_RESET_AFTER_MS,
  },
});

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => void supervisor.shutdown(0, `received ${signal}`));
}
// `kill <npm pid>` kills npm and its `sh -c` but not this process, which the system then
// adopts: a changed parent means whoever started the stack is gone, so it stops too.
const parentPid = process.ppid;
setInterval(() => {
  if (process.ppid !== parentPid)
    void supervisor.shutdown(0, `the process that started npm start (pid ${parentPid}) went away`);
}, PARENT_CHECK_MS).unref();
bringUp(supervisor, config, dataPaths(config.DEVSTACK_DATA_DIR), apps).catch((error: unknown) => {
  if (supervisor.isStopping()) return;
  void supervisor.shutdown(1, error instanceof Error ? error.message : String(error));
});
// Explicit exit: an idle pg pool or HTTP keep-alive socket must not hold the process open.
process.exit(await supervisor.stopped);
