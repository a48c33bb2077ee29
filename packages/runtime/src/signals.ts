import type { Logger } from '@switchboard/logger';

/**
 * Added to a process's own shutdown timeout for its hard bound: closing the pool, Redis and
 * S3 after the work stopped takes a few bounded seconds more.
 */
export const SHUTDOWN_SLACK_MS = 5_000;

/**
 * SIGTERM and SIGINT run `stop` once, then exit with the code it returns (1 if it throws).
 * A second signal while stopping exits at once: the operator has asked twice. A stop still
 * running after `boundMs` exits 1: a shutdown must never hang on a dependency.
 *
 * Returns a trigger for stops that are not an operator's signal (a gateway process told by its
 * primary): it starts the same stop, and does nothing once stopping, so a request that
 * arrives with the terminal's own SIGINT does not count as asking twice.
 */
export function onStopSignals(
  logger: Logger,
  stop: (signal: NodeJS.Signals) => Promise<number>,
  boundMs: number,
): () => void {
  let stopping = false;
  const begin = (signal: NodeJS.Signals): void => {
    stopping = true;
    setTimeout(() => {
      logger.error({ boundMs }, 'shutdown did not finish in time, exiting');
      process.exit(1);
    }, boundMs).unref();
    stop(signal).then(
      (code) => process.exit(code),
      (error: unknown) => {
        logger.error({ reason: error instanceof Error ? error.message : String(error) }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    if (!stopping) {
      begin(signal);
      return;
    }
    logger.warn({ signal }, 'second signal, exiting now');
    process.exit(1);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return () => {
    if (!stopping) begin('SIGTERM');
  };
}
