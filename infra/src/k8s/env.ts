import { readFile } from 'node:fs/promises';
import { parseEnv } from 'node:util';
import { z } from '@switchboard/config';
import { findObject, idOf, podSpecOf, type K8sObject } from './objects.ts';

/** Secrets by name, each its keys and values: the examples standing in for what an operator creates. */
export type SecretValues = Record<string, Record<string, string>>;

export interface SecretExample {
  /** Its `KEY=value` lines. */
  values: Record<string, string>;
  /** Keys a deployment may add, documented as comments: `# KEY=value`. */
  optional: Record<string, string>;
}

/** A Secret created by hand, from its example env file. */
export async function readSecretExample(path: string): Promise<SecretExample> {
  const text = await readFile(path, 'utf8');
  const commented = text
    .split('\n')
    .filter((line) => /^# [A-Z][A-Z0-9_]*=/.test(line))
    .map((line) => line.slice(2))
    .join('\n');
  return {
    values: parseEnv(text) as Record<string, string>,
    optional: parseEnv(commented) as Record<string, string>,
  };
}

const keyRef = z.strictObject({ name: z.string(), key: z.string(), optional: z.boolean().optional() });
const nameRef = z.strictObject({ name: z.string(), optional: z.boolean().optional() });

/** The environment fields of a container this resolver understands; fieldRef and the like are refused. */
const containerEnvSchema = z.looseObject({
  name: z.string(),
  envFrom: z
    .array(
      z.union([
        z.strictObject({ configMapRef: nameRef, prefix: z.string().optional() }),
        z.strictObject({ secretRef: nameRef, prefix: z.string().optional() }),
      ]),
    )
    .default([]),
  env: z
    .array(
      z.union([
        z.strictObject({ name: z.string(), value: z.string() }),
        z.strictObject({ name: z.string(), valueFrom: z.strictObject({ configMapKeyRef: keyRef }) }),
        z.strictObject({ name: z.string(), valueFrom: z.strictObject({ secretKeyRef: keyRef }) }),
      ]),
    )
    .default([]),
});

export interface ResolvedEnv {
  /** Every variable the container starts with, as Kubernetes would set it. */
  values: Record<string, string>;
  /** Where each came from: `ConfigMap gateway-config`, `Secret switchboard`, `env`. */
  sources: Record<string, string>;
}

function configMapData(objects: readonly K8sObject[], name: string, owner: string): Record<string, string> {
  const configMap = findObject(objects, 'ConfigMap', name);
  if (!configMap) throw new Error(`${owner}: ConfigMap ${name} is not in the manifests`);
  return (configMap['data'] ?? {}) as Record<string, string>;
}

function secretData(secrets: SecretValues, name: string, owner: string): Record<string, string> {
  const secret = secrets[name];
  if (!secret) throw new Error(`${owner}: Secret ${name} is not one the deployment documents`);
  return secret;
}

function lookup(data: Record<string, string>, key: string, what: string, owner: string): string {
  const value = data[key];
  if (value === undefined) throw new Error(`${owner}: ${what} has no key ${key}`);
  return value;
}

/**
 * The environment of container `containerName` of a Deployment or Job, as the kubelet builds
 * it: `envFrom` sources in order, then `env` entries over them. ConfigMaps come from `objects`,
 * Secrets from `secrets`. A reference to a missing ConfigMap, Secret or key throws (an
 * `optional: true` one is skipped), as the pod would fail to start.
 */
export function containerEnv(
  workload: K8sObject,
  containerName: string,
  objects: readonly K8sObject[],
  secrets: SecretValues,
): ResolvedEnv {
  const owner = `${idOf(workload)} container ${containerName}`;
  const containers = (podSpecOf(workload)['containers'] ?? []) as unknown[];
  const raw = containers.find((container) => (container as { name?: unknown }).name === containerName);
  if (raw === undefined) throw new Error(`${owner}: no such container`);
  const container = containerEnvSchema.parse(raw);
  const values: Record<string, string> = {};
  const sources: Record<string, string> = {};
  const set = (name: string, value: string, source: string) => {
    values[name] = value;
    sources[name] = source;
  };
  for (const source of container.envFrom) {
    const prefix = source.prefix ?? '';
    if ('configMapRef' in source) {
      const { name, optional } = source.configMapRef;
      if (optional && !findObject(objects, 'ConfigMap', name)) continue;
      for (const [key, value] of Object.entries(configMapData(objects, name, owner))) {
        set(`${prefix}${key}`, value, `ConfigMap ${name}`);
      }
    } else {
      const { name, optional } = source.secretRef;
      if (optional && !secrets[name]) continue;
      for (const [key, value] of Object.entries(secretData(secrets, name, owner))) {
        set(`${prefix}${key}`, value, `Secret ${name}`);
      }
    }
  }
  for (const entry of container.env) {
    if ('value' in entry) {
      set(entry.name, entry.value, 'env');
    } else if ('configMapKeyRef' in entry.valueFrom) {
      const { name, key, optional } = entry.valueFrom.configMapKeyRef;
      const data = optional && !findObject(objects, 'ConfigMap', name) ? {} : configMapData(objects, name, owner);
      if (optional && data[key] === undefined) continue;
      set(entry.name, lookup(data, key, `ConfigMap ${name}`, owner), `ConfigMap ${name}`);
    } else {
      const { name, key, optional } = entry.valueFrom.secretKeyRef;
      const data = optional && !secrets[name] ? {} : secretData(secrets, name, owner);
      if (optional && data[key] === undefined) continue;
      set(entry.name, lookup(data, key, `Secret ${name}`, owner), `Secret ${name}`);
    }
  }
  return { values, sources };
}
