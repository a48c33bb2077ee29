import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export interface CorpusExample {
  /** Which file of the package: api.github.com or a GitHub Enterprise Server version. */
  source: string;
  event: string;
  index: number;
  payload: Record<string, unknown>;
}

interface WebhookDefinition {
  name: string;
  examples: Record<string, unknown>[];
}

/** Every payload file @octokit/webhooks-examples ships. */
export const CORPUS_SOURCES = ['api.github.com', 'ghes-31', 'ghes-32', 'ghes-33', 'ghes-34', 'ghes-35'] as const;

function load(source: string): WebhookDefinition[] {
  return require(`@octokit/webhooks-examples/${source}/index.json`) as WebhookDefinition[];
}

export function corpus(): CorpusExample[] {
  return CORPUS_SOURCES.flatMap((source) =>
    load(source).flatMap((definition) =>
      definition.examples.map((payload, index) => ({ source, event: definition.name, index, payload })),
    ),
  );
}

/** An example as tests read and edit it: arbitrary JSON, reached into by path. */
// biome-ignore lint/suspicious/noExplicitAny: tests reach into and edit arbitrary example JSON
export type ExamplePayload = Record<string, any>;

/** A deep copy of the first api.github.com example of `event` (with `action`, when given). */
export function example(event: string, action?: string): ExamplePayload {
  const definition = load('api.github.com').find((candidate) => candidate.name === event);
  const found = definition?.examples.find((payload) => action === undefined || payload['action'] === action);
  if (!found) throw new Error(`no example of ${event} ${action ?? ''}`);
  return structuredClone(found);
}
