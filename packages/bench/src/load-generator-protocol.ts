import type { AutocannonRun } from './autocannon-run.ts';
import type { Measurement } from './measure.ts';
import type { PacedOptions, PacedRequest } from './paced-load.ts';
import type { MixLoad, MixMeasurement } from './paced-mix.ts';

/** A load the generator's process runs: an autocannon run, a paced (open-loop) one, or a mix of paced ones. */
export type Load =
  | { kind: 'autocannon'; run: AutocannonRun }
  | { kind: 'paced'; target: PacedRequest; options: PacedOptions }
  | { kind: 'mix'; mix: MixLoad };

export type LoadRequest = Load & { id: number };

/** A mix answers a MixMeasurement, every other load a Measurement. */
export type LoadResult = Measurement | MixMeasurement;

export type LoadAnswer = { id: number; measurement: LoadResult } | { id: number; error: string };

export function isLoadRequest(message: unknown): message is LoadRequest {
  return typeof message === 'object' && message !== null && 'id' in message && 'kind' in message;
}
