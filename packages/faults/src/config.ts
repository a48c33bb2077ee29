import { env, loadConfig, z } from '@switchboard/config';
import type { ProcessLogs } from './processes.ts';

const faultsSchema = z.object({
  /** Replays a chaos run: the seed a run printed gives the same faults in the same order. */
  FAULTS_SEED: env.int(0, 2 ** 32 - 1).optional(),
  /** How long `chaos` starts faults for, in minutes. */
  FAULTS_CHAOS_MINUTES: z.coerce.number().positive().max(240).default(3),
  /** Keeps every process's log here, a folder per scenario, for a failing row (else no logs are kept). */
  FAULTS_LOG_DIR: z.string().min(1).optional(),
  /** The level the processes log at when FAULTS_LOG_DIR is set. */
  FAULTS_LOG_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error']).default('info'),
});

export interface FaultsConfig {
  seed: number;
  chaosMinutes: number;
  logs: ProcessLogs | undefined;
}

/** The seed comes from `--seed=N`, else FAULTS_SEED, else the clock (and the run prints it). */
export function loadFaultsConfig(seedArgument: string | undefined): FaultsConfig {
  const config = loadConfig(
    faultsSchema,
    seedArgument === undefined ? process.env : { ...process.env, FAULTS_SEED: seedArgument },
    'faults',
  );
  return {
    seed: config.FAULTS_SEED ?? Date.now() % 2 ** 32,
    chaosMinutes: config.FAULTS_CHAOS_MINUTES,
    logs:
      config.FAULTS_LOG_DIR === undefined ? undefined : { dir: config.FAULTS_LOG_DIR, level: config.FAULTS_LOG_LEVEL },
  };
}
