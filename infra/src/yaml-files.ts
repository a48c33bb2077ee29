import { readFile } from 'node:fs/promises';
import { parseAllDocuments } from 'yaml';
import type { Json } from './json.ts';

/**
 * Every document of a YAML file as plain JSON values, `<<` merge keys resolved. Empty documents
 * (a leading comment block before `---`) are left out, as kubectl and kustomize leave them out.
 * A syntax error throws with the file named.
 */
export async function readYamlDocuments(path: string): Promise<Json[]> {
  return parseYamlDocuments(await readFile(path, 'utf8'), path);
}

export function parseYamlDocuments(text: string, source: string): Json[] {
  const documents = parseAllDocuments(text, { merge: true, uniqueKeys: true });
  if (!Array.isArray(documents)) return [];
  const values: Json[] = [];
  for (const document of documents) {
    const [error] = document.errors;
    if (error) throw new Error(`${source}: ${error.message}`);
    const value = document.toJS({ maxAliasCount: 100 }) as Json;
    if (value !== null && value !== undefined) values.push(value);
  }
  return values;
}
