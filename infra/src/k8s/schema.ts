import type { K8sObject } from './objects.ts';
import { idOf, typeOf } from './objects.ts';
import { isManifestKind, MODELS } from './kinds.ts';

/**
 * What is wrong with `object` by its kind's OpenAPI schema (kubernetes-models: types, required
 * fields, formats), one line per problem; empty when it is valid. A kind not in kinds.ts is one
 * problem. Unknown fields are not problems to the schema: unknown-fields.ts finds those.
 */
export function schemaProblems(object: K8sObject): string[] {
  const type = typeOf(object);
  if (!isManifestKind(type))
    return [`${idOf(object)}: ${type} is not a kind the manifests may hold (src/k8s/kinds.ts)`];
  try {
    new MODELS[type](object as never).validate();
    return [];
  } catch (error) {
    const errors = (error as { errors?: { instancePath: string; message?: string }[] }).errors;
    if (!errors) return [`${idOf(object)}: ${(error as Error).message}`];
    return errors.map(
      (problem) => `${idOf(object)}: ${problem.instancePath || '/'} ${problem.message ?? 'is invalid'}`,
    );
  }
}
