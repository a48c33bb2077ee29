import type { AutocannonRun } from './autocannon-run.ts';
import type { Measurement } from './measure.ts';
import type { PacedOptions, PacedRequest } from './paced-load.ts';

/** A load the generator's process runs: an autocannon run, or a paced (open-loop) one. */
export type Load =
  | { kind: 'autocannon'; run: AutocannonRun }
  | { kind: 'paced'; target: PacedRequest; options: PacedOptions };

export type LoadRequest = Load & { id: number };

export type LoadAnswer = { id: number; measurement: Measurement } | { id: number; error: string };

export function isLoadRequest(message: unknown): message is LoadRequest {
  return typeof message === 'object' && message !== null && 'id' in message && 'kind' in message;
}
