import { describeExit, spawnChild, type Child, type ChildSpec } from './child.ts';
import type { LogSink } from './log.ts';
import { DEFAULT_RESTART_BACKOFF, type RestartBackoffPolicy } from './restart-backoff.ts';
import { superviseApp, type SupervisedApp } from './supervised-app.ts';

/** What to run; the stack's env is added under `env`, and cwd is the stack's. */
export type SupervisedSpec = Omit<ChildSpec, 'cwd' | 'env'> & { env?: Record<string, string> };

/**
 * Owns every process and resource the stack starts. App processes (gateway, workers) are
 * restarted with backoff when they exit on their own; a store process that dies stops
 * everything (see spawnStore). Stopping is ordered: all app processes in parallel first, since
 * their graceful shutdown still needs the stores; then the stores and other resources, newest
 * first.
 */
export interface Supervisor {
  logs: LogSink;
  log(line: string): void;
  /** Runs an app process, restarted with backoff whenever it exits until the stack stops. */
  startApp(spec: SupervisedSpec): SupervisedApp;
  /** Spawns a store process (PostgreSQL, Redis); its unexpected exit stops everything. */
  spawnStore(spec: SupervisedSpec): Child;
  /** Registers a clean-up step, run at shutdown after the apps have stopped. */
  onStop(step: () => Promise<void> | void): void;
  isStopping(): boolean;
  /** Starts the shutdown (once; later calls are ignored) and resolves when it is complete. */
  shutdown(exitCode: number, reason: string): Promise<number>;
  /** Resolves with the exit code once a shutdown has completed. */
  stopped: Promise<number>;
}

export interface SupervisorOptions {
  logs: LogSink;
  cwd: string;
  env: Record<string, string>;
  stopTimeoutMs: number;
  /** When app processes are restarted; DEFAULT_RESTART_BACKOFF unless given. */
  restartBackoff?: RestartBackoffPolicy;
}

export function createSupervisor(options: SupervisorOptions): Supervisor {
  const { logs, cwd, env, stopTimeoutMs, restartBackoff = DEFAULT_RESTART_BACKOFF } = options;
  const log = logs.writer('devstack');
  const apps: SupervisedApp[] = [];
  const steps: Array<() => Promise<void> | void> = [];
  let shuttingDown: Promise<number> | undefined;
  let stepsDone = false;
  let resolveStopped: (exitCode: number) => void = () => {};
  const stopped = new Promise<number>((resolve) => {
    resolveStopped = resolve;
  });

  const fullSpec = (spec: SupervisedSpec): ChildSpec => {
    // Start-up may still be running when a shutdown begins; nothing new may start then.
    if (shuttingDown) throw new Error(`not starting ${spec.name}: the stack is stopping`);
    return { ...spec, cwd, env: { ...env, ...spec.env } };
  };

  const stopApp = async (app: SupervisedApp) => {
    const status = await app.stop(stopTimeoutMs);
    log(`${app.name} stopped (${status ? describeExit(status) : 'it was waiting to be restarted'})`);
  };

  const stopStore = async (child: Child) => {
    const status = await child.stop(stopTimeoutMs);
    log(`${child.name} stopped (${describeExit(status)})`);
  };

  const supervisor: Supervisor = {
    logs,
    log,
    startApp(spec) {
      const app = superviseApp(fullSpec(spec), logs, restartBackoff);
      apps.push(app);
      return app;
    },
    spawnStore(spec) {
      const child = spawnChild(fullSpec(spec), logs);
      steps.push(() => stopStore(child));
      // Not restarted: the apps were handed this store's URL, whose port may have been taken
      // since it was picked, and what kills a store (a full disk, a removed data folder, the
      // OOM killer) is rarely cured by starting it again; PostgreSQL already restarts its own
      // crashed backends. Stopping with its name and exit 1 says what happened, where apps
      // failing in a loop against a store that is gone would bury it.
      void child.exited.then((status) => {
        if (!shuttingDown)
          void supervisor.shutdown(1, `${child.name} ${describeExit(status)} unexpectedly; a store is not restarted`);
      });
      return child;
    },
    onStop(step) {
      // A resource that finished starting after the clean-up ran is released at once.
      if (stepsDone)
        void Promise.resolve()
          .then(step)
          .catch(() => {});
      else steps.push(step);
    },
    isStopping: () => shuttingDown !== undefined,
    stopped,
    shutdown(exitCode, reason) {
      shuttingDown ??= (async () => {
        log(reason);
        log('stopping everything');
        await Promise.all(apps.map(stopApp));
        for (let step = steps.pop(); step; step = steps.pop()) {
          await Promise.resolve()
            .then(step)
            .catch((error: unknown) =>
              log(`clean-up failed: ${error instanceof Error ? error.message : String(error)}`),
            );
        }
        stepsDone = true;
        log(exitCode === 0 ? 'stopped' : `stopped (exit code ${exitCode})`);
        resolveStopped(exitCode);
        return exitCode;
      })();
      return shuttingDown;
    },
  };
  return supervisor;
}
