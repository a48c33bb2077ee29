import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import createClient from 'openapi-fetch';
import openapiTS, { astToString } from 'openapi-typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { ACL } from '@switchboard/contracts';
import { call } from '@switchboard/testkit/http';
import { createWebhookFixture } from '@switchboard/testkit/webhooks';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { createAdmin } from './admin-helpers.ts';
import { uniqueClient, useGateway } from './helpers.ts';
import { clientProgram } from './openapi-client-program.ts';
import { documentOperations, schemaValidator, type OpenApiDocument } from './openapi-helpers.ts';

const environment = useTestEnvironment();
const gateway = useGateway(environment, { TRUSTED_PROXY_HOPS: '1' });

/** Under the repository's node_modules, so the program resolves `openapi-fetch` as a client project would. */
const CACHE = fileURLToPath(new URL('../../../node_modules/.cache/', import.meta.url));
const made: string[] = [];
afterAll(async () => {
  for (const dir of made) await rm(dir, { recursive: true, force: true });
});

async function servedDocument(): Promise<OpenApiDocument> {
  const answer = await call('GET', `${gateway.url}/v1/openapi.json`, { headers: uniqueClient() });
  expect(answer.status).toBe(200);
  return answer.body as OpenApiDocument;
}

const TSC = fileURLToPath(new URL('../../../node_modules/typescript/bin/tsc', import.meta.url));

/**
 * `tsc --noEmit` of the program, strict, in a child process: one compile, and the gateway this
 * process serves keeps answering meanwhile. Resolves to tsc's report (empty when it is clean).
 */
async function typeErrors(dir: string): Promise<string> {
  const compilerOptions = {
    strict: true,
    noEmit: true,
    target: 'es2022',
    module: 'esnext',
    moduleResolution: 'bundler',
    allowImportingTsExtensions: true,
    lib: ['es2022', 'dom'],
    types: [],
    skipLibCheck: true,
  };
  await writeFile(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['program.ts'] }));
  const { stdout, stderr, code } = await new Promise<{ stdout: string; stderr: string; code: number | null }>(
    (resolve, reject) => {
      execFile(process.execPath, [TSC, '-p', dir], { cwd: dir }, (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') reject(error);
        else resolve({ stdout, stderr, code: error ? (error.code as number) : 0 });
      });
    },
  );
  return code === 0 ? '' : `${stdout}${stderr}`;
}

describe('a client generated from /v1/openapi.json (openapi-typescript + openapi-fetch)', () => {
  it('type-checks a program that calls every operation with the examples', async () => {
    const document = await servedDocument();
    await mkdir(CACHE, { recursive: true });
    const dir = await mkdtemp(join(CACHE, 'openapi-client-'));
    made.push(dir);
    await writeFile(join(dir, 'schema.ts'), astToString(await openapiTS(document as never)));
    await writeFile(join(dir, 'program.ts'), clientProgram(document));
    expect(await typeErrors(dir)).toBe('');
  });

  it('calls the gateway with typed requests, and its answers match the document', async () => {
    const document = await servedDocument();
    const validate = schemaValidator(document);
    const schemaOf = (operationId: string, status: number) => {
      const found = documentOperations(document).find((op) => op.operation.operationId === operationId)!;
      return found.operation.responses[String(status)]!.content!['application/json']!.schema;
    };
    const expectDocumented = (operationId: string, answer: { response: Response; data?: unknown }) => {
      expect(answer.response.status, operationId).toBe(200);
      expect(validate(schemaOf(operationId, 200), answer.data), operationId).toEqual([]);
    };
    // The types are checked above; here the runtime: openapi-fetch's URLs, parameters and bodies.
    const client = createClient<Record<string, never>>({ baseUrl: gateway.url }) as unknown as {
      GET(path: string, init?: object): Promise<{ response: Response; data?: unknown }>;
      POST(path: string, init?: object): Promise<{ response: Response; data?: unknown }>;
    };
    const admin = await createAdmin(gateway.pool, [ACL.authenticate, ACL.apiKeyManage, ACL.banIpCheck]);
    const asAdmin = { ...uniqueClient(), Authorization: `Admin ${admin.key}` };
    const webhook = await createWebhookFixture(gateway.pool);

    expectDocumented(
      'get_discovery_document',
      await client.GET('/v1/.well-known/service', { headers: uniqueClient() }),
    );
    expectDocumented(
      'create_admin_api_key',
      await client.POST('/v1/admin/api-keys', { headers: asAdmin, body: { name: 'client', acls: [ACL.banIpCheck] } }),
    );
    expectDocumented('list_admin_api_keys', await client.GET('/v1/admin/api-keys', { headers: asAdmin }));
    expectDocumented(
      'check_ip_ban',
      await client.POST('/v1/admin/bans/ip/check', { headers: asAdmin, body: { ip: '192.0.2.77' } }),
    );
    expectDocumented(
      'get_webhook_by_token',
      await client.GET('/v1/webhooks/{webhook_id}/{token}', {
        headers: uniqueClient(),
        params: { path: { webhook_id: webhook.webhookId, token: webhook.token } },
      }),
    );
  });
});
