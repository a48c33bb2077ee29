import { isReadyMessage } from '@switchboard/runtime';
import { describeExit, spawnChild, waitForMessage, type Child, type ChildSpec, type ExitStatus } from './child.ts';
import type { LogSink } from './log.ts';
import { createRestartBackoff, type RestartBackoffPolicy } from './restart-backoff.ts';

/** An app process (the gateway, a worker) that is started again whenever it exits on its own. */
export interface SupervisedApp {
  name: string;
  /** The process of the current run; a restart replaces it. */
  current(): Child;
  /** How often it has been restarted so far. */
  restarts(): number;
  /**
   * Cancels a pending restart and stops the running process (see Child.stop); resolves with how
   * it exited, or undefined when it was not running (it was waiting to be restarted).
   */
  stop(timeoutMs: number): Promise<ExitStatus | undefined>;
}

/**
 * Runs `spec` and restarts it with exponential backoff each time it exits, whatever the reason
 * (a crash, an OOM kill, a `kill -9` from a developer), until `stop`. Each restart is logged with
 * the exit and the delay; each run's readiness (announceReady of @switchboard/runtime, over the
 * IPC channel every child has) is logged too, so the log says when a restarted process is back.
 */
export function superviseApp(spec: ChildSpec, logs: LogSink, policy: RestartBackoffPolicy): SupervisedApp {
  const log = logs.writer('devstack');
  const backoff = createRestartBackoff(policy);
  let restarts = 0;
  let stopping = false;
  let pendingRestart: NodeJS.Timeout | undefined;

  const run = (): Child => {
    pendingRestart = undefined;
    const startedAt = Date.now();
    const runNumber = restarts;
    const child = spawnChild(spec, logs);
    if (runNumber > 0) log(`restarted ${spec.name} (pid ${child.pid}, restart ${runNumber})`);
    const readiness =
      runNumber > 0 ? `is back (pid ${child.pid}, restart ${runNumber})` : `is ready (pid ${child.pid})`;
    waitForMessage(child, (message) => (isReadyMessage(message) ? message : undefined)).then(
      () => log(`${spec.name} ${readiness}`),
      // It exited before it was ready: the exit below is logged and leads to the next restart.
      () => {},
    );
    void child.exited.then((status) => {
      if (stopping) return;
      const uptimeMs = Date.now() - startedAt;
      const delayMs = backoff.nextDelayMs(uptimeMs);
      restarts += 1;
      log(
        `${spec.name} ${describeExit(status)} after ${uptimeMs} ms; restarting it in ${delayMs} ms (restart ${restarts})`,
      );
      pendingRestart = setTimeout(() => {
        current = run();
      }, delayMs);
    });
    return child;
  };
  let current = run();

  return {
    name: spec.name,
    current: () => current,
    restarts: () => restarts,
    async stop(timeoutMs) {
      stopping = true;
      if (pendingRestart) {
        clearTimeout(pendingRestart);
        pendingRestart = undefined;
        return undefined;
      }
      return current.stop(timeoutMs);
    },
  };
}
