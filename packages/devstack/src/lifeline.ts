/**
 * Preloaded (`node --import`) into every app process `npm start` runs. Those processes get an
 * IPC channel to the supervisor; when it closes without the process having been told to stop
 * (the supervisor was SIGKILLed, or crashed), the process shuts itself down as on SIGTERM
 * instead of living on as an orphan. The apps themselves need to know nothing about it.
 * A gateway process of a cluster (GATEWAY_PROCESSES) preloads this too, but its channel goes
 * to its primary: the process drains and ends itself when that one closes (services/gateway/src/serve.ts).
 */
import cluster from 'node:cluster';

/** Matches the supervisor's default stop timeout: after it, the process exits regardless. */
const GRACE_MS = 10_000;

if (process.channel && !cluster.isWorker) {
  process.once('disconnect', () => {
    setTimeout(() => process.exit(1), GRACE_MS).unref();
    process.kill(process.pid, 'SIGTERM');
  });
  // Listening for 'disconnect' refs the channel; it must not keep a finished process alive.
  process.channel.unref();
}
