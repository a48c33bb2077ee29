import { env, loadConfig, z } from '@switchboard/config';

const faultsSchema = z.object({
  /** Replays a chaos run: the seed a run printed gives the same faults in the same order. */
  FAULTS_SEED: env.int(0, 2 ** 32 - 1).optional(),
  /** How long `chaos` starts faults for, in minutes. */
  FAULTS_CHAOS_MINUTES: z.coerce.number().positive().max(240).default(3),
});

export interface FaultsConfig {
  seed: number;
  chaosMinutes: number;
}

/** The seed comes from `--seed=N`, else FAULTS_SEED, else the clock (and the run prints it). */
export function loadFaultsConfig(seedArgument: string | undefined): FaultsConfig {
  const config = loadConfig(
    faultsSchema,
    seedArgument === undefined ? process.env : { ...process.env, FAULTS_SEED: seedArgument },
    'faults',
  );
  return { seed: config.FAULTS_SEED ?? Date.now() % 2 ** 32, chaosMinutes: config.FAULTS_CHAOS_MINUTES };
}
