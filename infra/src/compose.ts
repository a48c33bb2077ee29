import { readFile } from 'node:fs/promises';
import { z } from '@switchboard/config';
import type { Json } from './json.ts';
import { parseYamlDocuments } from './yaml-files.ts';

/**
 * A compose file as compose reads it before interpolation: one YAML document, `<<` merge keys
 * (the x- anchors) resolved. What the schema check validates.
 */
export async function readComposeFile(path: string): Promise<Json> {
  const documents = parseYamlDocuments(await readFile(path, 'utf8'), path);
  if (documents.length !== 1) throw new Error(`${path}: ${documents.length} YAML documents, expected one`);
  return documents[0]!;
}

/**
 * `${VAR}`, `${VAR:-default}`, `${VAR-default}`, `$VAR` and `$$` in `text`, as compose
 * substitutes them from `env` (`:-` also replaces an empty value). `${VAR:?message}` and
 * `${VAR?message}` throw when unset, as compose refuses to start.
 */
export function interpolate(text: string, env: Record<string, string | undefined>): string {
  return text.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)/g,
    (all, braced: string | undefined, colon: string | undefined, operator: string | undefined, word = '', bare) => {
      if (all === '$$') return '$';
      const name = (braced ?? bare) as string;
      const value = env[name];
      const unset = value === undefined || (colon === ':' && value === '');
      if (!unset || operator === undefined) return value ?? '';
      if (operator === '-') return interpolate(word, env);
      throw new Error(`${name}: ${word || 'required'}`);
    },
  );
}

const serviceSchema = z.looseObject({
  image: z.string().optional(),
  command: z.array(z.string()).optional(),
  container_name: z.string().optional(),
  environment: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).default({}),
  ports: z.array(z.string()).default([]),
  depends_on: z.record(z.string(), z.looseObject({ condition: z.string() })).default({}),
  volumes: z.array(z.string()).default([]),
  logging: z.looseObject({ driver: z.string(), options: z.record(z.string(), z.string()).default({}) }).optional(),
  healthcheck: z.looseObject({ test: z.array(z.string()) }).optional(),
  stop_grace_period: z.string().optional(),
});

/** The fields of a service the checks read, in the forms this repository's compose file uses. */
export type ComposeService = z.infer<typeof serviceSchema>;

export function composeServices(document: Json): Record<string, ComposeService> {
  return z.looseObject({ services: z.record(z.string(), serviceSchema) }).parse(document).services;
}

/** A service's environment with every value interpolated from `env` (an unset `${VAR:-…}`: its default). */
export function serviceEnv(service: ComposeService, env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(service.environment)
      .filter(([, value]) => value !== null)
      .map(([name, value]) => [name, interpolate(String(value), env)]),
  );
}

const DURATION_UNITS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1000, ms: 1, us: 0.001 };

/** A compose duration (`30s`, `1m30s`, `1500ms`) in milliseconds. */
export function durationMs(text: string): number {
  const parts = [...text.matchAll(/([0-9]+(?:\.[0-9]+)?)(h|ms|m|s|us)/g)];
  if (parts.length === 0 || parts.map(([part]) => part).join('') !== text) throw new Error(`not a duration: ${text}`);
  return parts.reduce((sum, [, amount, unit]) => sum + Number(amount) * DURATION_UNITS[unit!]!, 0);
}
