import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { spawnService, type ServiceProcess } from '@switchboard/testkit/processes';

/** How long a process gets to exit on SIGTERM before it is SIGKILLed (a dead dependency may hold it). */
const STOP_GRACE_MS = 5_000;

export interface RunningGateway {
  url: string;
  process: ServiceProcess;
}

/** A worker service run as a supervisor runs it: killed, it is started again in its place. */
export interface SupervisedWorker {
  current(): ServiceProcess;
  /** SIGKILLs the current process and waits until it is gone. */
  kill(): Promise<void>;
  /** Starts a new process in its place, resolved once it takes jobs. */
  restart(): Promise<void>;
}

/** Where processes' logs are kept, and the level they log at; unset, processes run silent. */
export interface ProcessLogs {
  dir: string;
  level: string;
}

let keptLogs: ProcessLogs | undefined;

/**
 * From now on every process started logs at `logs.level`, and when its scenario stops them all
 * its whole output (killed ones too) is written to `<dir>/<service>-<pid>.log`.
 */
export function keepProcessLogs(logs: ProcessLogs | undefined): void {
  keptLogs = logs;
}

/** Every process any scenario has running, for the runner to stop on Ctrl-C. */
const everyProcess = new Set<ServiceProcess>();

export async function stopEveryProcess(): Promise<void> {
  await Promise.all([...everyProcess].map((process) => process.stop('SIGKILL')));
}

/**
 * Every process one scenario starts, each with a snowflake worker id of its own (as `npm
 * start` gives them: two processes with one id could make the same message id), all stopped by
 * `stopAll` however the scenario ends.
 */
export class ScenarioProcesses {
  private readonly running = new Set<ServiceProcess>();
  /** Every process this scenario started, with where its log goes when logs are kept. */
  private readonly logged: { process: ServiceProcess; file: string }[] = [];
  private nextWorkerId = 1;

  private readonly env: (extra: Record<string, string>) => Record<string, string>;

  /** `env(extra)`: the variables every process gets (the scenario's stores, maybe through proxies). */
  constructor(env: (extra: Record<string, string>) => Record<string, string>) {
    this.env = env;
  }

  /** The gateway on a free loopback port, one process per two cores as `npm start` runs it (GATEWAY_PROCESSES=shared). */
  async gateway(extra: Record<string, string> = {}): Promise<RunningGateway> {
    const process = await this.spawn(
      'gateway',
      { PORT: '0', HOST: '127.0.0.1', GATEWAY_PROCESSES: 'shared', ...extra },
      this.nextWorkerId++,
    );
    return { url: `http://127.0.0.1:${process.ready['port'] as number}`, process };
  }

  async worker(service: string, extra: Record<string, string> = {}): Promise<SupervisedWorker> {
    // A restarted replica keeps its id: its clock has moved on since the ids it made before.
    const workerId = this.nextWorkerId++;
    let current = await this.spawn(service, extra, workerId);
    return {
      current: () => current,
      kill: async () => {
        await current.stop('SIGKILL');
        this.running.delete(current);
        everyProcess.delete(current);
      },
      restart: async () => {
        current = await this.spawn(service, extra, workerId);
      },
    };
  }

  async stopAll(): Promise<void> {
    await Promise.all([...this.running].map(stopWithinGrace));
    for (const process of this.running) everyProcess.delete(process);
    this.running.clear();
    await this.writeLogs();
  }

  private async writeLogs(): Promise<void> {
    for (const { process, file } of this.logged.splice(0)) {
      await mkdir(dirname(file), { recursive: true });
      await writeFile(file, process.output());
    }
  }

  private async spawn(service: string, extra: Record<string, string>, workerId: number): Promise<ServiceProcess> {
    const logs = keptLogs;
    const started = await spawnService(
      service,
      this.env({ ...extra, SNOWFLAKE_WORKER_ID: String(workerId), ...(logs && { LOG_LEVEL: logs.level }) }),
    );
    if (logs) this.logged.push({ process: started, file: join(logs.dir, `${service}-${started.child.pid}.log`) });
    this.running.add(started);
    everyProcess.add(started);
    return started;
  }
}

async function stopWithinGrace(process: ServiceProcess): Promise<void> {
  const stopped = await Promise.race([
    process.stop('SIGTERM').then(() => true),
    sleep(STOP_GRACE_MS).then(() => false),
  ]);
  if (!stopped) await process.stop('SIGKILL');
}
