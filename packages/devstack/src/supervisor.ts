import { describeExit, spawnChild, type Child, type ChildSpec } from './child.ts';
import type { LogSink } from './log.ts';

/**
 * Owns every process and resource the stack starts. Stopping is ordered: all app processes
 * (gateway, workers) in parallel first, since their graceful shutdown still needs the stores;
 * then the stores and other resources, newest first.
 */
export interface Supervisor {
  logs: LogSink;
  log(line: string): void;
  /** Spawns a child with the stack's env and cwd; its unexpected exit stops everything. */
  spawn(spec: Omit<ChildSpec, 'cwd' | 'env'> & { env?: Record<string, string> }, kind: 'app' | 'store'): Child;
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
}

export function createSupervisor({ logs, cwd, env, stopTimeoutMs }: SupervisorOptions): Supervisor {
  const log = logs.writer('devstack');
  const apps: Child[] = [];
  const steps: Array<() => Promise<void> | void> = [];
  let shuttingDown: Promise<number> | undefined;
  let stepsDone = false;
  let resolveStopped: (exitCode: number) => void = () => {};
  const stopped = new Promise<number>((resolve) => {
    resolveStopped = resolve;
  });

  const stopChild = async (child: Child) => {
    const status = await child.stop(stopTimeoutMs);
    log(`${child.name} stopped (${describeExit(status)})`);
  };

  const supervisor: Supervisor = {
    logs,
    log,
    spawn(spec, kind) {
      // Start-up may still be running when a shutdown begins; nothing new may start then.
      if (shuttingDown) throw new Error(`not starting ${spec.name}: the stack is stopping`);
      const child = spawnChild({ ...spec, cwd, env: { ...env, ...spec.env } }, logs);
      if (kind === 'app') apps.push(child);
      else steps.push(() => stopChild(child));
      void child.exited.then((status) => {
        if (!shuttingDown) void supervisor.shutdown(1, `${child.name} ${describeExit(status)} unexpectedly`);
      });
      return child;
    },
    onStop(step) {
      // A resource that finished starting after the clean-up ran is released at once.
      if (stepsDone) void Promise.resolve().then(step).catch(() => {});
      else steps.push(step);
    },
    isStopping: () => shuttingDown !== undefined,
    stopped,
    shutdown(exitCode, reason) {
      shuttingDown ??= (async () => {
        log(reason);
        log('stopping everything');
        await Promise.all(apps.map(stopChild));
        for (let step = steps.pop(); step; step = steps.pop()) {
          await Promise.resolve()
            .then(step)
            .catch((error: unknown) => log(`clean-up failed: ${error instanceof Error ? error.message : String(error)}`));
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
