/** A JSON value as YAML documents parse into: objects, lists, strings, numbers, booleans, null. */
export type Json = null | boolean | number | string | Json[] | JsonObject;
export interface JsonObject {
  [key: string]: Json;
}

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A deep copy, so a transformation never changes an object another one shares. */
export function cloneJson<T extends Json>(value: T): T {
  return structuredClone(value);
}

/** The value at `path` below `root` (object keys or list indexes), undefined when any step is missing. */
export function valueAt(root: Json | undefined, path: readonly (string | number)[]): Json | undefined {
  let current: Json | undefined = root;
  for (const step of path) {
    if (typeof step === 'number') current = Array.isArray(current) ? current[step] : undefined;
    else current = isJsonObject(current) ? current[step] : undefined;
  }
  return current;
}
