import { type ChildProcess, fork } from 'node:child_process';
import { SERVICE_NODE_FLAGS } from '@switchboard/runtime';
import type { AutocannonRun } from './autocannon-run.ts';
import type { Load, LoadAnswer, LoadRequest } from './load-generator-protocol.ts';
import type { Measurement } from './measure.ts';
import type { PacedOptions, PacedRequest } from './paced-load.ts';

const ENTRY = new URL('./load-generator-process.ts', import.meta.url).pathname;
const KEEP_OUTPUT_CHARS = 4_000;

/**
 * Every load the benchmarks offer is generated in one process of its own, as the autocannon
 * and wrk CLIs are, not in the harness's: there the generator's event loop also ran the
 * harness (its services' clients, an in-process S3, reports) and its heap grew run by run, so a
 * stall of the harness was charged to the target's latency. autocannon at 3,500 pushes/s
 * against express JSON: p99 24-35 ms driven from the harness's process, 9-17 ms from a process
 * of its own. The process starts with the services' node flags (no memory reducer: its
 * shrinking GC ~100 s in would pause the generator under load), is reused by every load of a
 * run (it stays compiled), and ends with the harness.
 */
class LoadGenerator {
  private child: ChildProcess | undefined;
  private output = '';
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (measurement: Measurement) => void; reject: (error: Error) => void }>();

  run(load: Load): Promise<Measurement> {
    const child = this.started();
    const request: LoadRequest = { ...load, id: this.nextId++ };
    const answer = new Promise<Measurement>((resolve, reject) => this.pending.set(request.id, { resolve, reject }));
    // Only a load under way keeps the harness alive: an idle generator must not hold it open.
    child.channel?.ref();
    child.send(request);
    return answer;
  }

  private started(): ChildProcess {
    if (this.child) return this.child;
    const child = fork(ENTRY, [], { execArgv: [...SERVICE_NODE_FLAGS], stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    const keep = (chunk: Buffer) => {
      this.output = (this.output + chunk.toString()).slice(-KEEP_OUTPUT_CHARS);
    };
    child.stdout?.on('data', keep);
    child.stderr?.on('data', keep);
    child.on('message', (message: LoadAnswer) => this.settle(message));
    child.on('exit', (code, signal) => {
      this.child = undefined;
      const error = new Error(`the load generator exited (${code ?? signal}):\n${this.output.trim()}`);
      for (const { reject } of this.pending.values()) reject(error);
      this.pending.clear();
    });
    // Idle, neither the process nor its pipes may hold the harness open (run() refs the channel).
    child.unref();
    for (const pipe of [child.stdout, child.stderr]) (pipe as { unref?: () => void } | null)?.unref?.();
    this.child = child;
    return child;
  }

  private settle(answer: LoadAnswer): void {
    const waiting = this.pending.get(answer.id);
    if (!waiting) return;
    this.pending.delete(answer.id);
    if (this.pending.size === 0) this.child?.channel?.unref();
    if ('error' in answer) waiting.reject(new Error(`load generator: ${answer.error}`));
    else waiting.resolve(answer.measurement);
  }
}

const generator = new LoadGenerator();

/** Runs `run` with autocannon in the load generator's process. */
export function autocannonLoad(run: AutocannonRun): Promise<Measurement> {
  return generator.run({ kind: 'autocannon', run });
}

/** An open-loop load at a steady rate (measurePaced) from the load generator's process. */
export function pacedLoad(target: PacedRequest, options: PacedOptions): Promise<Measurement> {
  return generator.run({ kind: 'paced', target, options });
}
