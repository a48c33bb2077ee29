import { type ChildProcess, fork } from 'node:child_process';
import { SERVICE_NODE_FLAGS } from '@switchboard/runtime';
import type { AutocannonRun } from './autocannon-run.ts';
import type { Load, LoadAnswer, LoadRequest, LoadResult } from './load-generator-protocol.ts';
import type { Measurement } from './measure.ts';
import type { PacedOptions, PacedRequest } from './paced-load.ts';
import type { MixLoad, MixMeasurement } from './paced-mix.ts';
import { captureOutput } from './processes.ts';

const ENTRY = new URL('./load-generator-process.ts', import.meta.url).pathname;

/**
 * Every load the benchmarks offer is generated in a process of its own, as the autocannon and
 * wrk CLIs run, not in the harness's: there the generator's event loop also ran the harness
 * (its services' clients, an in-process S3, reports) and its heap grew run by run, so a stall of
 * the harness was charged to the target's latency (packages/bench/README.md#the-harness).
 *
 * A fresh process for each run of loads (it ends once none is under way), as a CLI per run: one
 * process kept for a whole benchmark fell, after a minute or so, into several mark-compacts a
 * second (no memory reducer involved), and from then on the gateway's half-rate tail read worse
 * than from fresh processes alternating with it. Started with the services' node flags; an idle
 * one holds nothing of the harness open.
 */
class LoadGenerator {
  private current: GeneratorProcess | undefined;

  run(load: Load): Promise<LoadResult> {
    this.current ??= new GeneratorProcess((retired) => {
      if (this.current === retired) this.current = undefined;
    });
    return this.current.run(load);
  }

  get pid(): number | undefined {
    return this.current?.pid;
  }
}

/** One generator process: runs loads until none is under way, then ends. */
class GeneratorProcess {
  private readonly child: ChildProcess;
  private readonly output: () => string;
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (result: LoadResult) => void; reject: (error: Error) => void }
  >();

  /** Called once this process takes no more loads. */
  private readonly retired: (process: GeneratorProcess) => void;

  constructor(retired: (process: GeneratorProcess) => void) {
    this.retired = retired;
    this.child = fork(ENTRY, [], { execArgv: [...SERVICE_NODE_FLAGS], stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    this.output = captureOutput(this.child);
    this.child.on('message', (message: LoadAnswer) => this.settle(message));
    this.child.on('exit', (code, signal) => {
      this.retired(this);
      const error = new Error(`the load generator exited (${code ?? signal}):\n${this.output()}`);
      for (const { reject } of this.pending.values()) reject(error);
      this.pending.clear();
    });
    // Neither the process nor its pipes may hold the harness open; a load under way does.
    this.child.unref();
    for (const pipe of [this.child.stdout, this.child.stderr]) (pipe as { unref?: () => void } | null)?.unref?.();
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  run(load: Load): Promise<LoadResult> {
    const request: LoadRequest = { ...load, id: this.nextId++ };
    const answer = new Promise<LoadResult>((resolve, reject) => this.pending.set(request.id, { resolve, reject }));
    this.child.send(request);
    return answer;
  }

  private settle(answer: LoadAnswer): void {
    const waiting = this.pending.get(answer.id);
    if (!waiting) return;
    this.pending.delete(answer.id);
    if (this.pending.size === 0) {
      // Its last load is done: the next run gets a fresh process (the child ends on disconnect).
      this.retired(this);
      this.child.disconnect();
    }
    if ('error' in answer) waiting.reject(new Error(`load generator: ${answer.error}`));
    else waiting.resolve(answer.measurement);
  }
}

const generator = new LoadGenerator();

/** Runs `run` with autocannon in the load generator's process. */
export function autocannonLoad(run: AutocannonRun): Promise<Measurement> {
  return generator.run({ kind: 'autocannon', run }) as Promise<Measurement>;
}

/** An open-loop load at a steady rate (measurePaced) from the load generator's process. */
export function pacedLoad(target: PacedRequest, options: PacedOptions): Promise<Measurement> {
  return generator.run({ kind: 'paced', target, options }) as Promise<Measurement>;
}

/** Several paced loads at once (measureMix) from the load generator's process. */
export function mixLoad(mix: MixLoad): Promise<MixMeasurement> {
  return generator.run({ kind: 'mix', mix }) as Promise<MixMeasurement>;
}

/** The process generating loads now, if any (its CPU and memory are reported with the rest). */
export function loadGeneratorPid(): number | undefined {
  return generator.pid;
}
