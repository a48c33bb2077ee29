import { documentOperations, type OpenApiDocument } from './openapi-helpers.ts';

const literal = (value: unknown): string => JSON.stringify(value);

/** `client.GET('/v1/…', {params, body})` of one operation, with the document's examples as arguments. */
function callOf(method: string, path: string, operation: OpenApiDocument['paths'][string][string]): string {
  const parameters = operation.parameters ?? [];
  const path_ = Object.fromEntries(parameters.filter((p) => p.in === 'path').map((p) => [p.name, p.example]));
  const query = Object.fromEntries(
    parameters.filter((p) => p.in === 'query' && p.required).map((p) => [p.name, p.example]),
  );
  const params = {
    ...(Object.keys(path_).length > 0 ? { path: path_ } : {}),
    ...(Object.keys(query).length > 0 ? { query } : {}),
  };
  const body = operation.requestBody?.content['application/json']?.example;
  const init = [
    ...(Object.keys(params).length > 0 ? [`params: ${literal(params)}`] : []),
    ...(body === undefined ? [] : [`body: ${literal(body)}`]),
  ];
  const args = init.length > 0 ? `, { ${init.join(', ')} }` : '';
  return `client.${method.toUpperCase()}(${literal(path)}${args})`;
}

/**
 * A TypeScript program that calls every operation of the document through openapi-fetch, typed
 * by the `paths` openapi-typescript generated into `./schema.ts`: the examples must fit the
 * generated request types, each JSON success example must fit the typed `data`, and no `data`
 * of a JSON answer may be `unknown`. Type-checking it is what a client author's compiler does.
 */
export function clientProgram(document: OpenApiDocument): string {
  const functions = documentOperations(document).map(({ method, path, operation }) => {
    const checks = Object.entries(operation.responses)
      .filter(([status]) => /^2\d\d$/.test(status))
      .flatMap(([status, response]) => {
        const json = response.content?.['application/json'];
        if (!json) return [];
        return [
          `  const known${status}: IsKnown<Data> = true;`,
          `  const example${status}: Data = ${literal(json.example)};`,
          `  void known${status}; void example${status};`,
        ];
      });
    return [
      `export async function ${operation.operationId}(): Promise<void> {`,
      `  const { data } = await ${callOf(method, path, operation)};`,
      '  type Data = NonNullable<typeof data>;',
      ...checks,
      '  void data;',
      '}',
    ].join('\n');
  });
  return [
    "import createClient from 'openapi-fetch';",
    "import type { paths } from './schema.ts';",
    '',
    'type IsKnown<T> = unknown extends T ? false : true;',
    "const client = createClient<paths>({ baseUrl: 'http://127.0.0.1' });",
    '',
    ...functions,
    '',
  ].join('\n');
}
