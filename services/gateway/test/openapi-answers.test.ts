import { describe, expect, it } from 'vitest';
import { ACL } from '@switchboard/contracts';
import { call, type Answer } from '@switchboard/testkit/http';
import { createWebhookFixture } from '@switchboard/testkit/webhooks';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { openApiPath } from '../src/index.ts';
import { adminCall, createAdmin } from './admin-helpers.ts';
import { uniqueClient, useGateway } from './helpers.ts';
import { schemaValidator, type OpenApiDocument } from './openapi-helpers.ts';

const environment = useTestEnvironment();
const gateway = useGateway(environment, { TRUSTED_PROXY_HOPS: '1' });

/**
 * What is wrong with a real answer by the document: its status is not listed for the operation,
 * or its JSON body does not validate against that status's schema. Empty when it is documented.
 */
function undocumented(document: OpenApiDocument, method: string, expressPath: string, answer: Answer): unknown[] {
  const operation = document.paths[openApiPath(expressPath)]?.[method];
  let response = operation?.responses[String(answer.status)];
  if (!response) return [`${method} ${expressPath}: ${answer.status} is not documented`];
  if (response.$ref) response = document.components.responses[response.$ref.split('/').at(-1)!]!;
  const schema = response.content?.['application/json']?.schema;
  if (!schema) return [];
  return schemaValidator(document)(schema, answer.body).map((error) => ({ at: `${method} ${expressPath}`, error }));
}

describe('answers of every presenter match the served document', () => {
  it('admin areas, webhooks and health, through real requests', async () => {
    const document = (await call('GET', `${gateway.url}/v1/openapi.json`, { headers: uniqueClient() }))
      .body as OpenApiDocument;
    const admin = await createAdmin(gateway.pool, [ACL.wildcard]);
    const webhook = await createWebhookFixture(gateway.pool);
    const problems: unknown[] = [];
    const statuses: string[] = [];
    const check = async (method: string, path: string, concrete: string, body?: unknown): Promise<Answer> => {
      const answer = await adminCall(gateway.url, {
        method: method.toUpperCase(),
        path: concrete,
        key: admin.key,
        body,
        headers: uniqueClient(),
      });
      statuses.push(`${method} ${path} ${answer.status}`);
      problems.push(...undocumented(document, method, path, answer));
      return answer;
    };

    const key = await check('post', '/v1/admin/api-keys', '/v1/admin/api-keys', { name: 'docs', acls: ['*'] });
    await check('get', '/v1/admin/api-keys', '/v1/admin/api-keys');
    const keyId = (key.body as { key_id: string }).key_id;
    await check('delete', '/v1/admin/api-keys/:keyId', `/v1/admin/api-keys/${keyId}`);

    await check('post', '/v1/admin/bans/ip/add', '/v1/admin/bans/ip/add', { ip: '192.0.2.50', reason: 'docs' });
    await check('post', '/v1/admin/bans/ip/check', '/v1/admin/bans/ip/check', { ip: '192.0.2.50' });
    await check('post', '/v1/admin/bans/ip/check', '/v1/admin/bans/ip/check', { ip: '198.51.100.9' });
    await check('post', '/v1/admin/bans/ip/list', '/v1/admin/bans/ip/list', {});
    await check('post', '/v1/admin/bans/email/add', '/v1/admin/bans/email/add', { email: 'docs@example.com' });
    await check('post', '/v1/admin/bans/email/check', '/v1/admin/bans/email/check', { email: 'docs@example.com' });
    await check('post', '/v1/admin/bans/email/list', '/v1/admin/bans/email/list', {});
    await check('post', '/v1/admin/bans/email/list', '/v1/admin/bans/email/list', { simple: true });
    await check('post', '/v1/admin/bans/phone/list', '/v1/admin/bans/phone/list', {});

    await check('post', '/v1/admin/audit-logs', '/v1/admin/audit-logs', {});
    await check('post', '/v1/admin/audit-logs/search', '/v1/admin/audit-logs/search', { query: 'ban' });

    const archive = await check('post', '/v1/admin/archives/user', '/v1/admin/archives/user', {
      user_id: webhook.ownerId,
    });
    const archiveId = (archive.body as { archive_id: string }).archive_id;
    await check('post', '/v1/admin/archives/list', '/v1/admin/archives/list', {});
    const archivePath = '/v1/admin/archives/:subjectType/:subjectId/:archiveId';
    await check('get', archivePath, `/v1/admin/archives/user/${webhook.ownerId}/${archiveId}`);
    await check('get', archivePath, `/v1/admin/archives/user/${webhook.ownerId}/1`);

    await check('get', '/v1/admin/jobs/failed', '/v1/admin/jobs/failed');
    await check('post', '/v1/admin/jobs/retry', '/v1/admin/jobs/retry', {
      jobs: [{ queue: 'asset-purges', id: 'no-such-job' }],
    });
    await check('get', '/v1/admin/bulk/operations/:operationId', '/v1/admin/bulk/operations/1');
    await check('post', '/v1/admin/dashboard/session', '/v1/admin/dashboard/session', {});

    for (const [path, concrete] of [
      ['/v1/webhooks/:webhook_id', `/v1/webhooks/${webhook.webhookId}`],
      ['/v1/guilds/:guild_id/webhooks', `/v1/guilds/${webhook.guildId}/webhooks`],
    ] as const) {
      const answer = await call('GET', `${gateway.url}${concrete}`, {
        token: webhook.ownerToken,
        headers: uniqueClient(),
      });
      statuses.push(`get ${path} ${answer.status}`);
      problems.push(...undocumented(document, 'get', path, answer));
    }
    for (const path of ['/healthz', '/readyz', '/.well-known/service']) {
      const answer = await call('GET', `${gateway.url}${path}`, { headers: uniqueClient() });
      statuses.push(`get ${path} ${answer.status}`);
      problems.push(...undocumented(document, 'get', path, answer));
    }

    expect(problems).toEqual([]);
    // Each call reached its handler: the answers checked are the presenters', not the auth chain's.
    expect(statuses.filter((status) => !/ (200|204)$/.test(status))).toEqual([
      'get /v1/admin/bulk/operations/:operationId 404',
    ]);
  });
});
