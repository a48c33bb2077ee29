import type { Logger } from '@switchboard/logger';

/**
 * SIGTERM and SIGINT run `stop` once, then exit with the code it returns (1 if it throws).
 * A second signal while stopping exits at once: the operator has asked twice.
 */
export function onStopSignals(logger: Logger, stop: (signal: NodeJS.Signals) => Promise<number>): void {
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    if (stopping) {
      logger.warn({ signal }, 'second signal, exiting now');
      process.exit(1);
    }
    stopping = true;
    stop(signal).then(
      (code) => process.exit(code),
      (error: unknown) => {
        logger.error({ reason: error instanceof Error ? error.message : String(error) }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
