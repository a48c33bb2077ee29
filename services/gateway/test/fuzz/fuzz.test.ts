import { request as httpRequest } from 'node:http';
import { text as readText } from 'node:stream/consumers';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_ROUTES, type AdminRoute } from '@switchboard/contracts';
import { createWebhookFixture, webhookMessages, type WebhookFixture } from '@switchboard/testkit/webhooks';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { waitFor } from '@switchboard/testkit/wait';
import { chatAppBodySchema, executeBodySchema } from '@switchboard/webhook-formats';
import type { z } from 'zod';
import { createApiKeySchema } from '../../src/routes/admin/api-keys/schemas.ts';
import { listArchivesSchema, triggerGuildSchema, triggerUserSchema } from '../../src/routes/admin/archives/schemas.ts';
import { purgeRequestSchema } from '../../src/routes/admin/assets/schemas.ts';
import { listAuditLogsSchema, searchAuditLogsSchema } from '../../src/routes/admin/audit-logs/schemas.ts';
import * as bans from '../../src/routes/admin/bans/schemas.ts';
import { bulkAddSchema } from '../../src/routes/admin/bulk/schemas.ts';
import { retryJobsBody } from '../../src/routes/admin/jobs/schemas.ts';
import { listWebhooksSchema } from '../../src/routes/admin/webhooks/schemas.ts';
import { createWebhookBody, updateWebhookBody } from '../../src/routes/webhooks/schemas.ts';
import { createAdmin, type AdminFixture } from '../admin-helpers.ts';
import { deliveriesSettled, useExecuteStack } from '../webhook-execute-helpers.ts';
import { createGuildFixture, createWebhook, type GuildFixture } from '../webhooks-fixtures.ts';
import {
  anyJson,
  bodyTransport,
  deliver,
  formOf,
  fromJsonSchema,
  hostileString,
  jsonSchemaOf,
  type PiecewiseBody,
} from './arbitraries.ts';

/**
 * Property-based fuzzing of every route from the zod schemas that validate it (issue 12).
 * Invariants: no 5xx, every error in the error-body shape, every answer within the bound, and
 * every plain execute answered 204 is stored. Executions are also sent as forms, compressed
 * (gzip, deflate, br; whole or cut short), chunked and slowly, and objects carry prototype keys
 * now and then (issue 51). FUZZ_RUNS sets the size (npm run fuzz -- --runs N).
 */
const RUNS = Number(process.env['FUZZ_RUNS'] ?? 150);
/**
 * `npm test` replays one fixed seed, so CI is the same run every time; `npm run fuzz` draws a
 * new one (printed by fast-check on a failure, and settable with FUZZ_SEED to replay it).
 */
const SEED =
  process.env['FUZZ_SEED'] !== undefined
    ? Number(process.env['FUZZ_SEED'])
    : process.env['FUZZ_RUNS'] === undefined
      ? 20261123
      : undefined;
const PARAMETERS = { numRuns: RUNS, ...(SEED !== undefined ? { seed: SEED } : {}) };
const ANSWER_BOUND_MS = 15_000;
/** A test's own limit grows with the runs: a full run (100,000) takes hours, not the default minutes. */
const TEST_TIMEOUT_MS = Math.max(600_000, RUNS * 300);

const environment = useTestEnvironment();
const stack = useExecuteStack(environment, { gateway: { RATE_LIMITS_ENABLED: 'false', ADMIN_JOB_WAIT_MS: '100' } });
let admin: AdminFixture;
let guild: GuildFixture;
let hook: WebhookFixture;
let managed: { id: string; token: string };

beforeAll(async () => {
  admin = await createAdmin(stack.gateway.pool, ['*']);
  guild = await createGuildFixture(stack.gateway.pool);
  hook = await createWebhookFixture(stack.gateway.pool);
  managed = await createWebhook(stack.gateway.url, guild.channelIds[0], guild.owner, { name: 'fuzzed' });
});

/** Each admin route's body schema (the handlers' own); IP ban adds are left out: one of `0.0.0.0/0` bans the fuzzer. */
const ADMIN_BODIES: Record<string, z.ZodType | undefined> = {
  'POST /v1/admin/api-keys': createApiKeySchema,
  'POST /v1/admin/archives/user': triggerUserSchema,
  'POST /v1/admin/archives/guild': triggerGuildSchema,
  'POST /v1/admin/archives/list': listArchivesSchema,
  'POST /v1/admin/assets/purge': purgeRequestSchema,
  'POST /v1/admin/audit-logs': listAuditLogsSchema,
  'POST /v1/admin/audit-logs/search': searchAuditLogsSchema,
  'POST /v1/admin/bans/email/add': bans.emailAddSchema,
  'POST /v1/admin/bans/email/check': bans.emailCheckSchema,
  'POST /v1/admin/bans/email/list': bans.listSchema,
  'POST /v1/admin/bans/email/remove': bans.emailRemoveSchema,
  'POST /v1/admin/bans/phone/add': bans.phoneAddSchema,
  'POST /v1/admin/bans/phone/check': bans.phoneCheckSchema,
  'POST /v1/admin/bans/phone/list': bans.listSchema,
  'POST /v1/admin/bans/phone/remove': bans.phoneRemoveSchema,
  'POST /v1/admin/bans/ip/check': bans.ipCheckSchema,
  'POST /v1/admin/bans/ip/list': bans.listSchema,
  'POST /v1/admin/bans/ip/remove': bans.ipRemoveSchema,
  'POST /v1/admin/bulk/add-guild-members': bulkAddSchema(1000),
  'POST /v1/admin/jobs/retry': retryJobsBody,
  'POST /v1/admin/webhooks/list': listWebhooksSchema,
};
const FUZZED_ADMIN_ROUTES = ADMIN_ROUTES.filter((route) => route.path !== '/v1/admin/bans/ip/add');

interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Uint8Array | PiecewiseBody;
  /** A plain execute with the right token: if answered 204, it must be stored. */
  plainExecute?: boolean;
}

const json = (value: unknown) => JSON.stringify(value);
const pathId = fc.oneof(
  { weight: 3, arbitrary: fc.bigInt({ min: 1n, max: 2n ** 63n - 1n }).map(String) },
  { weight: 1, arbitrary: hostileString.map((text) => encodeURIComponent(text.toWellFormed())) },
);

function adminRequest(route: AdminRoute): fc.Arbitrary<FuzzRequest> {
  const schema = ADMIN_BODIES[`${route.method} ${route.path}`];
  const body = schema ? fromJsonSchema(jsonSchemaOf(schema)) : anyJson(3);
  const params = fc.record({
    keyId: pathId,
    subjectType: fc.constantFrom('user', 'guild', 'x'),
    subjectId: pathId,
    archiveId: pathId,
    purgeId: pathId,
    operationId: pathId,
    webhookId: pathId,
  });
  // Header values are bytes: what a client can put there is Latin-1 without control characters.
  const key = fc.oneof(
    { weight: 9, arbitrary: fc.constant(admin.key) },
    { weight: 1, arbitrary: hostileString.map((text) => text.replace(/[^\x20-\x7e]/g, '')) },
  );
  return fc.tuple(params, body, key).map(([values, value, adminKey]) => ({
    method: route.method,
    path: route.path.replace(/:(\w+)/g, (_, name: string) => values[name as keyof typeof values]),
    headers: { 'content-type': 'application/json', authorization: `Admin ${adminKey}` },
    ...(route.method === 'POST' ? { body: json(value) } : {}),
  }));
}

const executeRequest: fc.Arbitrary<FuzzRequest> = fc
  .tuple(
    fc.constantFrom('', '/slack', '/github', '/sentry'),
    fc.oneof({ weight: 9, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
    fc.boolean(),
    fc.constantFrom('push', 'issues', 'ping', 'star', 'pull_request', '', 'x'.repeat(300)),
    fc.constantFrom('issue', 'event_alert', 'installation', 'error', ''),
    bodyTransport,
    fc.oneof({ weight: 4, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  )
  .chain(([suffix, rightToken, wait, event, resource, transport, asForm]) => {
    const schema = suffix === '' ? executeBodySchema : suffix === '/slack' ? chatAppBodySchema : undefined;
    const body = schema ? fromJsonSchema(jsonSchemaOf(schema)) : anyJson(5);
    // JSON or a form, sent as is or compressed (whole or cut short), at once, chunked or slowly.
    const text = body.chain((value) => (asForm ? formOf(value, suffix) : fc.constant(json(value))));
    return text.map((bodyText) => {
      const delivery = deliver(new TextEncoder().encode(bodyText), transport);
      return {
        method: 'POST',
        path: `/v1/webhooks/${hook.webhookId}/${rightToken ? hook.token : 'x'.repeat(64)}${suffix}${wait && suffix === '' ? '?wait=true' : ''}`,
        headers: {
          'content-type': asForm ? 'application/x-www-form-urlencoded' : 'application/json',
          'x-github-event': event,
          'sentry-hook-resource': resource,
          ...delivery.headers,
        },
        body: delivery.body,
        plainExecute: suffix === '' && rightToken,
      };
    });
  });

const managementRequest: fc.Arbitrary<FuzzRequest> = fc.oneof(
  fromJsonSchema(jsonSchemaOf(createWebhookBody)).map((value) => ({
    method: 'POST',
    path: `/v1/channels/${guild.channelIds[1]}/webhooks`,
    headers: { 'content-type': 'application/json', authorization: guild.owner.token },
    body: json(value),
  })),
  fromJsonSchema(jsonSchemaOf(updateWebhookBody)).map((value) => ({
    method: 'PATCH',
    path: `/v1/webhooks/${managed.id}`,
    headers: { 'content-type': 'application/json', authorization: guild.owner.token },
    body: json(value),
  })),
  fc
    .tuple(pathId, fc.record({ limit: fc.oneof(fc.nat().map(String), hostileString), before: pathId, after: pathId }))
    .map(([channel, query]) => ({
      method: 'GET',
      path: `/v1/channels/${channel}/messages?${new URLSearchParams(query)}`,
      headers: { authorization: guild.owner.token },
    })),
);

/** What a client may send that no schema describes: odd types, encodings, bytes, nesting. */
const rawRequest: fc.Arbitrary<FuzzRequest> = fc
  .tuple(
    fc.constantFrom('POST', 'PATCH', 'PUT', 'DELETE', 'GET'),
    fc.constantFrom(
      '/v1/webhooks/1/x',
      '/v1/admin/bans/email/check',
      '/v1/channels/1/webhooks',
      '/v1/admin/audit-logs',
      '/v1/%zz',
      '/v1/webhooks/1/2/github',
    ),
    fc.constantFrom(
      'application/json',
      'application/x-www-form-urlencoded',
      'text/plain',
      'application/json; charset=latin1',
      'multipart/form-data',
      '',
    ),
    fc.constantFrom('identity', 'gzip', 'br', 'deflate', 'x-unknown'),
    fc.oneof(
      fc.uint8Array({ maxLength: 512 }),
      fc.nat({ max: 3_000 }).map((depth) => new TextEncoder().encode(`${'['.repeat(depth)}${']'.repeat(depth)}`)),
    ),
    fc.boolean(),
  )
  .map(([method, path, contentType, encoding, bytes, compress]) => ({
    method,
    path,
    headers: {
      ...(contentType ? { 'content-type': contentType } : {}),
      'content-encoding': encoding,
      authorization: `Admin ${admin.key}`,
    },
    ...(method === 'GET' ? {} : { body: compress && encoding === 'gzip' ? gzipSync(bytes) : bytes }),
  }));

interface Outcome {
  status: number;
  body: string;
  elapsedMs: number;
}

/**
 * A body sent in pieces on a connection of its own (chunked, `delayMs` between pieces). Node's
 * client, not fetch: the gateway may answer before the body is done (an unknown webhook) and
 * close, and the answer is what is checked.
 */
function sendPiecewise(request: FuzzRequest, body: PiecewiseBody): Promise<Outcome> {
  const started = performance.now();
  return new Promise<Outcome>((resolve, reject) => {
    const sent = httpRequest(`${stack.gateway.url}${request.path}`, {
      method: request.method,
      agent: false,
      headers: { ...request.headers, 'transfer-encoding': 'chunked' },
    });
    let answered = false;
    const timer = setTimeout(() => sent.destroy(new Error('no answer within the bound')), ANSWER_BOUND_MS + 5_000);
    sent.on('response', (response) => {
      answered = true;
      void readText(response).then((body) => {
        clearTimeout(timer);
        sent.destroy();
        resolve({ status: response.statusCode ?? 0, body, elapsedMs: performance.now() - started });
      });
    });
    sent.on('error', (error) => {
      if (answered) return;
      clearTimeout(timer);
      reject(error);
    });
    void (async () => {
      for (const [index, piece] of body.pieces.entries()) {
        if (answered || sent.destroyed) return;
        if (index > 0 && body.delayMs > 0) await sleep(body.delayMs);
        sent.write(piece);
      }
      if (!answered && !sent.destroyed) sent.end();
    })();
  });
}

async function send(request: FuzzRequest): Promise<Outcome> {
  if (request.body !== undefined && typeof request.body === 'object' && 'pieces' in request.body)
    return sendPiecewise(request, request.body);
  const started = performance.now();
  const response = await fetch(`${stack.gateway.url}${request.path}`, {
    method: request.method,
    headers: request.headers,
    ...(request.body === undefined ? {} : { body: request.body as string | Uint8Array }),
    signal: AbortSignal.timeout(ANSWER_BOUND_MS + 5_000),
  });
  return { status: response.status, body: await response.text(), elapsedMs: performance.now() - started };
}

/** The error-body shape of docs/decisions.md#error-bodies (429s add retry_after and global). */
function isErrorBody(text: string): boolean {
  try {
    const body = JSON.parse(text) as { code?: unknown; message?: unknown };
    return typeof body.code === 'string' && typeof body.message === 'string';
  } catch {
    return false;
  }
}

let acceptedPlainExecutes = 0;

async function holdsInvariants(request: FuzzRequest): Promise<void> {
  const outcome = await send(request);
  const where = `${request.method} ${request.path.slice(0, 120)} → ${outcome.status} ${outcome.body.slice(0, 200)}`;
  expect(outcome.status, where).toBeLessThan(500);
  if (outcome.status >= 400) expect(isErrorBody(outcome.body), where).toBe(true);
  expect(outcome.elapsedMs, where).toBeLessThan(ANSWER_BOUND_MS);
  if (request.plainExecute && (outcome.status === 204 || outcome.status === 200)) acceptedPlainExecutes += 1;
}

describe(`fuzzing every route from its zod schema (${RUNS} runs a family)`, () => {
  it(
    'admin routes: no 5xx, error bodies in shape, bounded answers',
    async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...FUZZED_ADMIN_ROUTES).chain(adminRequest), holdsInvariants),
        PARAMETERS,
      );
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'webhook management and message reads: no 5xx, error bodies in shape, bounded answers',
    async () => {
      await fc.assert(fc.asyncProperty(managementRequest, holdsInvariants), PARAMETERS);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'webhook execution in every format: no 5xx, and every accepted plain execute is stored',
    async () => {
      await fc.assert(fc.asyncProperty(executeRequest, holdsInvariants), PARAMETERS);
      expect(await deliveriesSettled(stack.deliveries, 120_000)).toBe(0);
      const plain = await waitFor(async () => {
        const stored = (await webhookMessages(stack.gateway.pool, hook.webhookId)).length;
        // Code-host and Slack messages land on the same webhook: plain ones are at least as many as accepted.
        return stored >= acceptedPlainExecutes && stored;
      }, 30_000);
      expect(plain).toBeGreaterThanOrEqual(acceptedPlainExecutes);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'raw requests (content types, encodings, bytes, nesting): no 5xx, error bodies in shape',
    async () => {
      await fc.assert(fc.asyncProperty(rawRequest, holdsInvariants), PARAMETERS);
    },
    TEST_TIMEOUT_MS,
  );
});
