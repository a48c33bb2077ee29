import { isJsonObject, type Json, type JsonObject } from '../json.ts';
import type { K8sObject } from '../k8s/objects.ts';

/**
 * Where each kind the manifests use keeps its pod template's labels (kustomize's
 * `includeTemplates`). A kind missing here is refused, not passed through: kustomize may label
 * a place this renderer does not know of, and the comparison would only say so where kubectl is.
 */
const TEMPLATE_LABEL_PATHS: Record<string, readonly string[][]> = {
  ConfigMap: [],
  Secret: [],
  Service: [],
  PodDisruptionBudget: [],
  HorizontalPodAutoscaler: [],
  ScaledObject: [],
  Deployment: [['spec', 'template', 'metadata', 'labels']],
  Job: [['spec', 'template', 'metadata', 'labels']],
};

/** Kinds that live in no namespace: the manifests hold none, and the renderer refuses them. */
const CLUSTER_SCOPED_KINDS = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition']);

export function setNamespace(object: K8sObject, namespace: string): void {
  if (CLUSTER_SCOPED_KINDS.has(object.kind)) throw new Error(`namespace: ${object.kind} is cluster-scoped`);
  object.metadata.namespace = namespace;
}

/** The map at `path` below `root`, created (objects all the way) when missing. */
function mapAt(root: JsonObject, path: readonly string[]): JsonObject {
  let current = root;
  for (const step of path) {
    const next = current[step];
    if (next !== undefined && !isJsonObject(next)) throw new Error(`${path.join('/')}: ${step} is not an object`);
    current[step] = next ?? {};
    current = current[step] as JsonObject;
  }
  return current;
}

/** kustomize `labels`: `pairs` on every object's metadata, and on its pod template with `includeTemplates`. */
export function addLabels(object: K8sObject, pairs: Record<string, string>, includeTemplates: boolean): void {
  const templatePaths = TEMPLATE_LABEL_PATHS[object.kind];
  if (templatePaths === undefined) throw new Error(`labels: kind ${object.kind} is not known to this renderer`);
  const paths = [['metadata', 'labels'], ...(includeTemplates ? templatePaths : [])];
  for (const path of paths) Object.assign(mapAt(object as unknown as JsonObject, path), pairs);
}

export interface ImageOverride {
  name: string;
  newName?: string | undefined;
  newTag?: string | undefined;
  digest?: string | undefined;
}

/** `registry:5000/team/app:1.2@sha256:…` → its name (`registry:5000/team/app`), tag and digest. */
export function parseImage(reference: string): { name: string; tag?: string; digest?: string } {
  const [withoutDigest, digest] = reference.split('@', 2) as [string, string | undefined];
  const lastSlash = withoutDigest.lastIndexOf('/');
  const colon = withoutDigest.indexOf(':', lastSlash + 1);
  const name = colon === -1 ? withoutDigest : withoutDigest.slice(0, colon);
  const tag = colon === -1 ? undefined : withoutDigest.slice(colon + 1);
  return { name, ...(tag === undefined ? {} : { tag }), ...(digest === undefined ? {} : { digest }) };
}

function overriddenImage(reference: string, override: ImageOverride): string {
  const image = parseImage(reference);
  const name = override.newName ?? image.name;
  if (override.digest !== undefined) return `${name}@${override.digest}`;
  if (override.newTag !== undefined) return `${name}:${override.newTag}`;
  return `${name}${image.tag === undefined ? '' : `:${image.tag}`}${image.digest === undefined ? '' : `@${image.digest}`}`;
}

/** kustomize `images`: the `image` of every item of a `containers` or `initContainers` list, wherever it is. */
export function setImages(value: Json, overrides: readonly ImageOverride[]): void {
  if (Array.isArray(value)) {
    for (const item of value) setImages(item, overrides);
    return;
  }
  if (!isJsonObject(value)) return;
  for (const [field, inner] of Object.entries(value)) {
    if ((field === 'containers' || field === 'initContainers') && Array.isArray(inner)) {
      for (const container of inner) {
        if (!isJsonObject(container) || typeof container['image'] !== 'string') continue;
        const current = container['image'];
        const override = overrides.find((candidate) => parseImage(current).name === candidate.name);
        if (override) container['image'] = overriddenImage(current, override);
      }
    }
    setImages(inner, overrides);
  }
}
