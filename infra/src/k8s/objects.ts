import { z } from '@switchboard/config';
import { isJsonObject, type Json, type JsonObject } from '../json.ts';

const metadataSchema = z.looseObject({
  name: z.string().min(1),
  namespace: z.string().min(1).optional(),
  labels: z.record(z.string(), z.string()).optional(),
  annotations: z.record(z.string(), z.string()).optional(),
});

/** What every Kubernetes object in a manifest has; the rest is checked against its kind's schema. */
const objectSchema = z.looseObject({
  apiVersion: z.string().min(1),
  kind: z.string().min(1),
  metadata: metadataSchema,
});

export type K8sObject = z.infer<typeof objectSchema> & JsonObject;

/** A YAML document as an object, or an error naming where it came from. */
export function asK8sObject(document: Json, source: string): K8sObject {
  const parsed = objectSchema.safeParse(document);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new Error(`${source}: not a Kubernetes object (${problems.join('; ')})`);
  }
  return document as K8sObject;
}

/** `apiVersion/kind`: `apps/v1/Deployment`, `v1/Service`. */
export function typeOf(object: K8sObject): string {
  return `${object.apiVersion}/${object.kind}`;
}

/** What kustomize and the API server tell objects apart by. */
export function idOf(object: K8sObject): string {
  return `${typeOf(object)} ${object.metadata.namespace ?? '~'}/${object.metadata.name}`;
}

export function findObject(objects: readonly K8sObject[], kind: string, name: string): K8sObject | undefined {
  return objects.find((object) => object.kind === kind && object.metadata.name === name);
}

export function objectsOfKind(objects: readonly K8sObject[], kind: string): K8sObject[] {
  return objects.filter((object) => object.kind === kind);
}

/** The pod spec of a Deployment or Job (`spec.template.spec`). */
export function podSpecOf(object: K8sObject): JsonObject {
  const spec = object['spec'];
  const template = isJsonObject(spec) ? spec['template'] : undefined;
  const podSpec = isJsonObject(template) ? template['spec'] : undefined;
  if (!isJsonObject(podSpec)) throw new Error(`${idOf(object)} has no spec.template.spec`);
  return podSpec;
}

/** The pod template's labels of a Deployment or Job. */
export function templateLabelsOf(object: K8sObject): Record<string, string> {
  const spec = object['spec'];
  const template = isJsonObject(spec) ? spec['template'] : undefined;
  const metadata = isJsonObject(template) ? template['metadata'] : undefined;
  const labels = isJsonObject(metadata) ? metadata['labels'] : undefined;
  return isJsonObject(labels) ? (labels as Record<string, string>) : {};
}
