import { isDeepStrictEqual } from 'node:util';
import { z } from '@switchboard/config';
import { cloneJson, isJsonObject, type Json } from '../json.ts';

/** The RFC 6902 operations the renderer applies; `move` and `copy` are refused when parsed. */
export const jsonPatchSchema = z.array(
  z.discriminatedUnion('op', [
    z.strictObject({ op: z.literal('add'), path: z.string(), value: z.json() }),
    z.strictObject({ op: z.literal('replace'), path: z.string(), value: z.json() }),
    z.strictObject({ op: z.literal('test'), path: z.string(), value: z.json() }),
    z.strictObject({ op: z.literal('remove'), path: z.string() }),
  ]),
);

export type JsonPatch = z.infer<typeof jsonPatchSchema>;

/** `/a/b~1c/0` → ['a', 'b/c', '0'] (RFC 6901). */
function pointerSteps(pointer: string): string[] {
  if (pointer === '') return [];
  if (!pointer.startsWith('/')) throw new Error(`JSON pointer ${JSON.stringify(pointer)} does not start with /`);
  return pointer
    .slice(1)
    .split('/')
    .map((step) => step.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function listIndex(list: Json[], step: string, pointer: string, allowEnd: boolean): number {
  if (allowEnd && step === '-') return list.length;
  const index = /^(0|[1-9][0-9]*)$/.test(step) ? Number(step) : Number.NaN;
  if (!(index < list.length + (allowEnd ? 1 : 0))) throw new Error(`${pointer}: no list index ${step}`);
  return index;
}

/**
 * Applies `patch` to a copy of `document` (RFC 6902: add, replace, remove, test). Every path
 * must lead to an existing parent, and replace, remove and test to an existing value, or the
 * patch throws: a patch that quietly does nothing is a patch that drifted from its target.
 */
export function applyJsonPatch(document: Json, patch: JsonPatch): Json {
  let root = cloneJson(document);
  for (const operation of patch) {
    const steps = pointerSteps(operation.path);
    const last = steps.at(-1);
    if (last === undefined) {
      if (operation.op === 'remove' || operation.op === 'test')
        throw new Error(`${operation.op} of the whole document`);
      root = cloneJson(operation.value);
      continue;
    }
    let parent: Json = root;
    for (const step of steps.slice(0, -1)) {
      const next: Json | undefined = Array.isArray(parent)
        ? parent[listIndex(parent, step, operation.path, false)]
        : isJsonObject(parent)
          ? parent[step]
          : undefined;
      if (next === undefined) throw new Error(`${operation.path}: ${step} does not exist`);
      parent = next;
    }
    if (Array.isArray(parent)) {
      const index = listIndex(parent, last, operation.path, operation.op === 'add');
      if (operation.op === 'add') parent.splice(index, 0, cloneJson(operation.value));
      else if (operation.op === 'replace') parent[index] = cloneJson(operation.value);
      else if (operation.op === 'remove') parent.splice(index, 1);
      else if (!isDeepStrictEqual(parent[index], operation.value)) {
        throw new Error(`${operation.path}: test failed`);
      }
    } else if (isJsonObject(parent)) {
      if (operation.op !== 'add' && !Object.hasOwn(parent, last)) {
        throw new Error(`${operation.path}: ${last} does not exist`);
      }
      if (operation.op === 'add' || operation.op === 'replace') parent[last] = cloneJson(operation.value);
      else if (operation.op === 'remove') delete parent[last];
      else if (!isDeepStrictEqual(parent[last], operation.value)) {
        throw new Error(`${operation.path}: test failed`);
      }
    } else {
      throw new Error(`${operation.path}: the parent is not an object or a list`);
    }
  }
  return root;
}
