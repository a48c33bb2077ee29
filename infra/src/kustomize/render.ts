import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { parse } from 'yaml';
import { asK8sObject, idOf, type K8sObject } from '../k8s/objects.ts';
import type { Json } from '../json.ts';
import { parseYamlDocuments, readYamlDocuments } from '../yaml-files.ts';
import { applyJsonPatch, jsonPatchSchema } from './json-patch.ts';
import { kustomizationSchema, type Kustomization, type PatchTarget } from './kustomization.ts';
import { applyStrategicMerge } from './strategic-merge.ts';
import { addLabels, setImages, setNamespace } from './transformers.ts';

/**
 * The objects `kubectl kustomize <folder>` prints, for the subset of kustomize that
 * kustomization.ts accepts: resources (files and folders, rendered first), then patches,
 * namespace, labels and images, in kustomize's order. Objects come in resource order, not
 * kustomize's by-kind order: compare them by id (idOf). Throws on anything it cannot render
 * exactly, naming the file.
 */
export async function renderKustomization(folder: string): Promise<K8sObject[]> {
  const file = join(folder, 'kustomization.yaml');
  const parsed = kustomizationSchema.safeParse(parse(await readFile(file, 'utf8')));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`);
    throw new Error(`${file}: ${problems.join('; ')}`);
  }
  const kustomization = parsed.data;
  let objects = await loadResources(folder, kustomization.resources);
  for (const entry of kustomization.patches) {
    const source = entry.path === undefined ? `${file} (inline patch)` : fileWithin(folder, entry.path);
    const text = entry.patch ?? (await readFile(source, 'utf8'));
    objects = applyPatch(objects, parseYamlDocuments(text, source), entry.target, source);
  }
  transform(objects, kustomization);
  return objects;
}

async function loadResources(folder: string, entries: readonly string[]): Promise<K8sObject[]> {
  const objects: K8sObject[] = [];
  for (const entry of entries) {
    const path = resolve(folder, entry);
    if ((await stat(path)).isDirectory()) objects.push(...(await renderKustomization(path)));
    else {
      const file = fileWithin(folder, entry);
      objects.push(...(await readYamlDocuments(file)).map((document) => asK8sObject(document, file)));
    }
  }
  const seen = new Set<string>();
  for (const object of objects) {
    const id = idOf(object);
    if (seen.has(id)) throw new Error(`${folder}: ${id} is defined twice`);
    seen.add(id);
  }
  return objects;
}

/**
 * A file a kustomization reads must be in or below its folder (kustomize's default load
 * restriction); another kustomization's folder may be anywhere.
 */
function fileWithin(folder: string, entry: string): string {
  const path = resolve(folder, entry);
  const inside = relative(folder, path);
  if (inside.startsWith('..') || isAbsolute(inside)) throw new Error(`${path} is not in or below ${folder}`);
  return path;
}

function transform(objects: K8sObject[], kustomization: Kustomization): void {
  for (const object of objects) {
    if (kustomization.namespace !== undefined) setNamespace(object, kustomization.namespace);
    for (const { pairs, includeTemplates } of kustomization.labels) addLabels(object, pairs, includeTemplates);
    setImages(object, kustomization.images);
  }
}

/** `apps/v1` → group `apps`, version `v1`; `v1` → the core group (''). */
function groupVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash === -1
    ? { group: '', version: apiVersion }
    : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}

function matchesTarget(object: K8sObject, target: PatchTarget): boolean {
  const { group, version } = groupVersion(object.apiVersion);
  if (target.group !== undefined && target.group !== group) return false;
  if (target.version !== undefined && target.version !== version) return false;
  if (target.kind !== undefined && target.kind !== object.kind) return false;
  if (target.name !== undefined && target.name !== object.metadata.name) return false;
  const labels = object.metadata.labels ?? {};
  for (const requirement of target.labelSelector?.split(',') ?? []) {
    const [key, value] = requirement.split('=').map((part) => part.trim());
    if (key === undefined || value === undefined || requirement.includes('!')) {
      throw new Error(`labelSelector ${JSON.stringify(target.labelSelector)}: only key=value pairs are supported`);
    }
    if (labels[key] !== value) return false;
  }
  return true;
}

/**
 * A JSON patch (one document, a list of operations) on every object its target selects, or
 * strategic merge patches (object documents) each on the one object of its apiVersion, kind
 * and name. A patch that reaches no object throws: it has drifted from the manifests.
 */
function applyPatch(objects: K8sObject[], documents: Json[], target: PatchTarget | undefined, source: string) {
  const [first] = documents;
  if (documents.length === 1 && Array.isArray(first)) {
    if (target === undefined) throw new Error(`${source}: a JSON patch needs a target`);
    const operations = jsonPatchSchema.parse(first);
    let reached = 0;
    const patched = objects.map((object) => {
      if (!matchesTarget(object, target)) return object;
      reached += 1;
      return asK8sObject(applyJsonPatch(object, operations), `${source} on ${idOf(object)}`);
    });
    if (reached === 0) throw new Error(`${source}: the target ${JSON.stringify(target)} selects no object`);
    return patched;
  }
  if (target !== undefined) throw new Error(`${source}: a strategic merge patch with a target is not supported`);
  let patched = objects;
  for (const document of documents) {
    const patch = asK8sObject(document, source);
    const matches = patched.filter(
      (object) =>
        object.apiVersion === patch.apiVersion &&
        object.kind === patch.kind &&
        object.metadata.name === patch.metadata.name &&
        (patch.metadata.namespace === undefined || object.metadata.namespace === patch.metadata.namespace),
    );
    if (matches.length !== 1) throw new Error(`${source}: ${idOf(patch)} matches ${matches.length} objects, not one`);
    patched = patched.map((object) =>
      object === matches[0] ? asK8sObject(applyStrategicMerge(object, patch), `${source} on ${idOf(object)}`) : object,
    );
  }
  return patched;
}
