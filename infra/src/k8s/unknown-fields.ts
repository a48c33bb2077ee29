import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import type { Json } from '../json.ts';
import { idOf, typeOf, type K8sObject } from './objects.ts';

/**
 * The API server drops a field it does not know (or, with strict field validation, refuses the
 * object), and neither kubernetes-models' schemas nor Kubernetes' own OpenAPI forbid one: a
 * misspelt `livenessprobe` validates and does nothing. So every field is looked up in the kind's
 * TypeScript type from kubernetes-models, read by the compiler from kinds.ts.
 */
interface KindTypes {
  checker: ts.TypeChecker;
  byKind: Map<string, ts.Type>;
}

let kindTypes: KindTypes | undefined;

function loadKindTypes(): KindTypes {
  const file = fileURLToPath(new URL('./kinds.ts', import.meta.url));
  const program = ts.createProgram([file], {
    target: ts.ScriptTarget.ES2024,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    allowImportingTsExtensions: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(file);
  const declaration = source?.statements.find(
    (statement): statement is ts.InterfaceDeclaration =>
      ts.isInterfaceDeclaration(statement) && statement.name.text === 'ManifestKinds',
  );
  if (!declaration) throw new Error(`${file}: no ManifestKinds interface`);
  const kinds = checker.getTypeAtLocation(declaration);
  const byKind = new Map(checker.getPropertiesOfType(kinds).map((kind) => [kind.name, checker.getTypeOfSymbol(kind)]));
  return { checker, byKind };
}

/** `spec.template.spec.containers[0].livenessprobe`-style paths of every field `object`'s kind does not have. */
export function unknownFields(object: K8sObject): string[] {
  kindTypes ??= loadKindTypes();
  const type = kindTypes.byKind.get(typeOf(object));
  if (!type) return [`${idOf(object)}: ${typeOf(object)} is not a kind the manifests may hold (src/k8s/kinds.ts)`];
  const found: string[] = [];
  walk(kindTypes.checker, object, type, '', found);
  return found.map((path) => `${idOf(object)}: unknown field ${path}`);
}

function walk(checker: ts.TypeChecker, value: Json, declared: ts.Type, path: string, found: string[]): void {
  if (value === null || typeof value !== 'object') return;
  const type = objectPart(checker, checker.getNonNullableType(declared), Array.isArray(value));
  if (type === undefined) return;
  if (Array.isArray(value)) {
    const [element] = checker.getTypeArguments(type as ts.TypeReference);
    if (!element) return;
    for (const [index, item] of value.entries()) walk(checker, item, element, `${path}[${index}]`, found);
    return;
  }
  const fields = new Map(checker.getPropertiesOfType(type).map((field) => [field.name, field]));
  const anyKey = checker.getIndexInfoOfType(type, ts.IndexKind.String)?.type;
  for (const [key, inner] of Object.entries(value)) {
    const field = fields.get(key);
    const where = path === '' ? key : `${path}.${key}`;
    if (field) walk(checker, inner, checker.getTypeOfSymbol(field), where, found);
    else if (anyKey) walk(checker, inner, anyKey, where, found);
    else found.push(where);
  }
}

/**
 * The part of a declared type a list or an object value is checked against: the type itself, or
 * its one list (object) member when it is a union (`IntOrString`, `T | null`). Undefined when
 * anything goes there (`any`, free-form JSON): nothing to check below.
 */
function objectPart(checker: ts.TypeChecker, type: ts.Type, isList: boolean): ts.Type | undefined {
  if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return undefined;
  const members = type.isUnion() ? type.types : [type];
  const fitting = members.filter((member) =>
    isList ? checker.isArrayType(member) : !checker.isArrayType(member) && (member.flags & ts.TypeFlags.Object) !== 0,
  );
  if (fitting.length === 1) return fitting[0];
  // No list or object member: the schema check reports the wrong type. Several: not worth guessing.
  return undefined;
}
