import { spawn } from 'node:child_process';
import { constants } from 'node:os';

/**
 * `node guard.ts <command> [args…]`: runs a program that cannot watch its parent (redis-server)
 * so that it never outlives the stack. Signals are passed on; if the supervisor's IPC channel
 * closes (the supervisor died, even by SIGKILL), the program is terminated, then killed.
 * The guard exits as the program did and reports the program's pid over IPC.
 */

const GRACE_MS = 10_000;
const [command, ...args] = process.argv.slice(2);
if (!command) {
  process.stderr.write('usage: node guard.ts <command> [args…]\n');
  process.exit(64);
}

const child = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });
child.once('spawn', () => process.send?.({ type: 'spawned', pid: child.pid }));
child.once('error', (error) => {
  process.stderr.write(`could not run ${command}: ${error.message}\n`);
  process.exit(127);
});
child.once('exit', (code, signal) => {
  process.exit(signal ? 128 + (constants.signals[signal] ?? 0) : (code ?? 1));
});

for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
  process.on(signal, () => child.kill(signal));
}

if (process.channel) {
  process.once('disconnect', () => {
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), GRACE_MS).unref();
  });
  process.channel.unref();
}
