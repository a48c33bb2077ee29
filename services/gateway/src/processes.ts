import cluster, { type Worker } from 'node:cluster';
import type { Logger } from '@switchboard/logger';
import { aggregateMetricsForWorkers } from '@switchboard/metrics';
import {
  announceReady,
  isReadyMessage,
  onStopSignals,
  SHUTDOWN_SLACK_MS,
  serviceEnvFor,
  withServiceNodeFlags,
} from '@switchboard/runtime/lifecycle';
import type { ProcessesConfig } from './processes-config.ts';

/** What the primary sends a gateway process to make it drain and end (as SIGTERM would). */
const STOP_MESSAGE = 'switchboard:gateway-stop';

export function isStopMessage(message: unknown): boolean {
  return (message as { type?: unknown } | null)?.type === STOP_MESSAGE;
}

/** Pause before a process that died after the gateway was ready is replaced (a crash loop stays slow). */
const REPLACE_AFTER_MS = 1_000;

/**
 * Runs GATEWAY_PROCESSES gateway processes on one port (node:cluster). Each binds the port
 * itself with SO_REUSEPORT and the kernel spreads the connections: not node:cluster's round
 * robin, whose primary accepts every connection and hands it over, a cost per connection
 * (webhook senders often open one per delivery), and a connection handed to a process that
 * has just died hangs in the primary unanswered. The first process binds PORT (0: any free
 * port), the others then the port it got. Each process is a whole replica, with
 * its own pool, Redis clients, IP-ban index and snowflake id, exactly as on separate machines:
 * the gateway keeps no state another replica needs. One process's event loop is what bounds a
 * gateway's requests a second, not the cores: on the two-core bench machine two processes took
 * more webhook ingest than one (packages/bench/README.md#gateway-processes).
 *
 * The primary serves nothing itself and loads none of the app (main.ts): it says ready once
 * every process listens, replaces a process that dies afterwards, merges the processes' metrics
 * for a scrape that reaches any of them, and on SIGTERM/SIGINT stops them all (each drains as
 * on its own SIGTERM), ending with 0 only when every one drained. A process that dies before the gateway was first ready ends
 * the gateway (a bad port, no database): restarting it is the supervisor's call, as alone.
 */
export function runGatewayProcesses(config: ProcessesConfig, logger: Logger): void {
  const count = config.GATEWAY_PROCESSES;
  // The processes get the service flags even when the primary was started without them.
  cluster.setupPrimary({ execArgv: withServiceNodeFlags(process.execArgv) });
  // Its processes start as every service process does, whoever started the primary.
  const allocator = serviceEnvFor(process.env);
  aggregateMetricsForWorkers();
  const listening = new Set<number>();
  let port: number | undefined;
  let ready = false;
  let stopping = false;

  const start = (slot: number): void => {
    const worker = cluster.fork({ ...allocator, ...(port === undefined ? {} : { PORT: String(port) }) });
    worker.on('message', (message) => {
      if (!isReadyMessage(message)) return;
      if (ready) return logger.info({ processPid: worker.process.pid }, 'a gateway process is back');
      listening.add(slot);
      if (port === undefined) {
        port = Number(message['port']);
        for (let next = 1; next < count; next += 1) start(next);
      }
      if (listening.size < count) return;
      ready = true;
      logger.info({ processes: count, port }, 'gateway processes listening');
      announceReady('gateway', { port, processes: count });
    });
    worker.on('exit', (code, signal) => {
      if (stopping) return;
      if (!ready) {
        logger.fatal(
          { processPid: worker.process.pid, code, signal },
          'a gateway process ended before the gateway was ready; not starting',
        );
        process.exit(code || 1);
      }
      logger.error({ processPid: worker.process.pid, code, signal }, 'a gateway process ended; starting another');
      setTimeout(() => stopping || start(slot), REPLACE_AFTER_MS);
    });
  };
  start(0);

  onStopSignals(
    logger,
    async (signal) => {
      stopping = true;
      logger.info({ signal, processes: Object.keys(cluster.workers ?? {}).length }, 'stopping the gateway processes');
      const codes = await Promise.all(Object.values(cluster.workers ?? {}).map((worker) => stopProcess(worker!)));
      return codes.every((code) => code === 0) ? 0 : 1;
    },
    // Each process has SHUTDOWN_TIMEOUT_MS + slack; the primary outlasts them.
    config.SHUTDOWN_TIMEOUT_MS + 2 * SHUTDOWN_SLACK_MS,
  );
}

/** Asks one process to drain and end; resolves with its exit code (1 when a signal ended it). */
function stopProcess(worker: Worker): Promise<number> {
  return new Promise((resolve) => {
    if (worker.isDead()) return resolve(worker.process.exitCode ?? 1);
    worker.once('exit', (code) => resolve(code ?? 1));
    if (worker.isConnected()) worker.send({ type: STOP_MESSAGE });
  });
}
