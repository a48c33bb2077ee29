import { cloneJson, isJsonObject, type Json } from '../json.ts';

/**
 * Lists Kubernetes merges item by item, keyed by `name`, in a strategic merge patch. Every other
 * list in a patch replaces the list it patches, as a JSON merge patch does (RFC 7386): that is
 * also what kustomize does for the lists of custom resources. Kubernetes merges a few more
 * lists by other keys (container `ports` by containerPort, …): patch those with a JSON patch,
 * or extend this table, and the comparison with `kubectl kustomize` (test/kustomize.test.ts)
 * says whether the result agrees.
 */
const LISTS_MERGED_BY_NAME = new Set(['containers', 'initContainers', 'env', 'volumes', 'volumeMounts']);

/**
 * `patch` merged into a copy of `target`: objects key by key, `null` removing a key, the lists
 * above item by item (kustomize's order: the patch's items, merged, then the target's others),
 * anything else replaced. Directives
 * (`$patch`, `$setElementOrder/…`, `$retainKeys`, …) are refused: this renderer does not
 * implement them, and ignoring one would render something kustomize does not.
 */
export function applyStrategicMerge(target: Json, patch: Json): Json {
  return merge(cloneJson(target), patch, undefined);
}

function merge(target: Json | undefined, patch: Json, key: string | undefined): Json {
  if (isJsonObject(patch)) {
    const merged = isJsonObject(target) ? target : {};
    for (const [field, value] of Object.entries(patch)) {
      if (field.startsWith('$')) throw new Error(`strategic merge directive ${field} is not supported`);
      if (value === null) delete merged[field];
      else merged[field] = merge(merged[field], value, field);
    }
    return merged;
  }
  if (Array.isArray(patch) && Array.isArray(target) && key !== undefined && LISTS_MERGED_BY_NAME.has(key)) {
    const nameOf = (item: Json) => (isJsonObject(item) ? item['name'] : undefined);
    const patched = patch.map((item) => {
      const name = nameOf(item);
      if (typeof name !== 'string') throw new Error(`an item of ${key} in a patch has no name`);
      return merge(
        target.find((existing) => nameOf(existing) === name),
        item,
        undefined,
      );
    });
    const named = new Set(patch.map(nameOf));
    return [...patched, ...target.filter((existing) => !named.has(nameOf(existing)))];
  }
  return cloneJson(withoutNulls(patch));
}

/** A value a patch adds where nothing was: its `null` fields mean nothing to remove. */
function withoutNulls(value: Json): Json {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (!isJsonObject(value)) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([, field]) => field !== null)
      .map(([field, inner]) => [field, withoutNulls(inner)]),
  );
}
