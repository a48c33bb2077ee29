import { createAdminWithKey, generateAdminApiKey, hashCredential } from '@switchboard/auth';
import { insertAdminApiKey, insertAdminUser, type Pool } from '@switchboard/db';
import { ADMIN_ROUTES } from '@switchboard/contracts';
import { createSnowflakeGenerator } from '@switchboard/snowflake';
import { call, type Answer } from '@switchboard/testkit/http';
import { testSnowflakeWorkerId } from '@switchboard/testkit/ids';
import { waitFor } from '@switchboard/testkit/wait';
import { routeKey, type AdminArea } from '../src/index.ts';

export const fixtureIds = createSnowflakeGenerator(testSnowflakeWorkerId());

/** What markerArea's handlers answer: a request that gets it reached its route's handler. */
export const HANDLER_REACHED = { reached: 'handler' } as const;

/** An admin area serving every ADMIN_ROUTES entry with HANDLER_REACHED (and every feature on). */
export const markerArea: AdminArea = () =>
  Object.fromEntries(ADMIN_ROUTES.map((route) => [routeKey(route), (_req, res) => void res.json(HANDLER_REACHED)]));

export interface AdminFixture {
  adminId: string;
  keyId: string;
  key: string;
}

let adminCount = 0;

/**
 * An admin holding `acls` and one key. The key gets `keyAcls` (default: the same set); it is
 * written directly, so a test can give a key more than its owner holds.
 */
export async function createAdmin(
  pool: Pool,
  acls: string[],
  options: { keyAcls?: string[]; name?: string } = {},
): Promise<AdminFixture> {
  const name = options.name ?? `admin-${++adminCount}-${fixtureIds.next()}`;
  if (options.keyAcls === undefined) {
    const created = await createAdminWithKey(pool, fixtureIds, { name, acls });
    return { adminId: created.admin.id, keyId: created.record.id, key: created.key };
  }
  const admin = await insertAdminUser(pool, { id: fixtureIds.next(), name, acls });
  return { adminId: admin.id, ...(await insertKey(pool, admin.id, options.keyAcls)) };
}

/** A key for an existing admin; `expiresAt` may lie in the past (creation is moved before it). */
export async function insertKey(
  pool: Pool,
  adminId: string,
  acls: string[],
  options: { expiresAt?: Date } = {},
): Promise<{ keyId: string; key: string }> {
  const keyId = fixtureIds.next();
  const key = generateAdminApiKey(keyId);
  await insertAdminApiKey(pool, {
    id: keyId,
    adminUserId: adminId,
    name: 'fixture',
    keyHash: hashCredential(key),
    acls,
    expiresAt: null,
  });
  if (options.expiresAt) {
    await pool.query(
      `UPDATE admin_api_keys SET created_at = $2::timestamptz - interval '1 day', expires_at = $2 WHERE id = $1`,
      [keyId, options.expiresAt],
    );
  }
  return { keyId, key };
}

export interface AdminCall {
  method: string;
  path: string;
  key?: string;
  /** Sent as JSON; GET and DELETE send none unless given. */
  body?: unknown;
  headers?: Record<string, string>;
}

/** One HTTP call with `Authorization: Admin <key>` when a key is given. */
export function adminCall(baseUrl: string, request: AdminCall): Promise<Answer> {
  return call(request.method, `${baseUrl}${request.path}`, {
    token: request.key,
    scheme: 'Admin',
    body: request.body,
    headers: request.headers,
  });
}

/**
 * The status route of an operation that outlived its request (`statusPath`), read with `key`
 * until the operation is neither queued nor running: its last answer.
 */
export function finishedOperationAnswer(baseUrl: string, statusPath: string, key: string): Promise<Answer> {
  return waitFor(async () => {
    const answer = await adminCall(baseUrl, { method: 'GET', path: statusPath, key });
    return answer.body.status !== 'queued' && answer.body.status !== 'running' && answer;
  }, 20_000);
}

/** Signs `key` in to the queue dashboard; the answer and the `name=value` of its session cookie. */
export async function signInToDashboard(
  baseUrl: string,
  key: string,
  headers?: Record<string, string>,
): Promise<{ answer: Answer; cookie: string }> {
  const answer = await adminCall(baseUrl, {
    method: 'POST',
    path: '/v1/admin/dashboard/session',
    key,
    body: {},
    headers,
  });
  return { answer, cookie: (answer.headers.get('set-cookie') ?? '').split(';')[0]! };
}
