import type { Request, Response } from 'express';
import { ApiError, REQUEST_ID_HEADER, requestIdOf, responseLocal } from '@switchboard/http';
import { AUDIT_REASON_HEADER } from '../admin-auth/index.ts';
import type { GatewayConfig } from '../config.ts';

/** The signed-in console session of this request: its token and its admin key, opened for this request only. */
const sessionSlot = responseLocal<{ token: string; adminKey: string }>(
  'consoleSession',
  'the console called the admin API before sign-in',
);
export const setConsoleSession = sessionSlot.set;

/** The session token (what seals the session's records in Redis). */
export function consoleSessionToken(res: Response): string {
  return sessionSlot.get(res).token;
}

export interface AdminCall {
  method: 'GET' | 'POST' | 'DELETE';
  /** The admin route's path, e.g. `/v1/admin/bans/ip/list`. */
  path: string;
  body?: unknown;
  /** The operator's reason: sent as X-Audit-Log-Reason, so it becomes the audit entry's reason. */
  reason?: string | null;
}

export interface AdminAnswer {
  status: number;
  /** The parsed JSON body, or null (204, or not JSON). */
  body: unknown;
}

/** Console pages and forms call this; `AdminApi` is what they receive. */
export type AdminApi = (req: Request, res: Response, call: AdminCall) => Promise<AdminAnswer>;

/**
 * HTTP headers carry bytes: a reason in any language goes as its UTF-8 bytes (auditReason reads
 * them back as UTF-8), line breaks and control characters never.
 */
function headerText(text: string): string {
  return Buffer.from(text.replace(/\p{Cc}/gu, ' ').trim(), 'utf8').toString('latin1');
}

/**
 * Every console action is an ordinary admin API call (docs/decisions.md#console): an HTTP request
 * to this same gateway process, at the address and port the browser's request came in on, with
 * `Authorization: Admin <the session's key>`. The admin routes' own chain then authenticates,
 * rate limits, checks ACLs, validates and audits, exactly as for any client. The client's
 * X-Forwarded-For goes along, so with trusted proxy hops the call counts against the operator's
 * address; the request id too, so both requests share one trace in the logs.
 */
export function consoleAdminApi(config: Pick<GatewayConfig, 'CONSOLE_API_TIMEOUT_MS'>): AdminApi {
  return async (req, res, call) => {
    const { localAddress, localPort } = req.socket;
    if (localAddress === undefined || localPort === undefined) throw new ApiError('SERVICE_UNAVAILABLE');
    const host = localAddress.includes(':') ? `[${localAddress}]` : localAddress;
    const headers: Record<string, string> = { Authorization: `Admin ${sessionSlot.get(res).adminKey}` };
    if (call.body !== undefined) headers['Content-Type'] = 'application/json';
    if (call.reason) headers[AUDIT_REASON_HEADER] = headerText(call.reason);
    const forwardedFor = req.headers['x-forwarded-for'];
    if (typeof forwardedFor === 'string') headers['X-Forwarded-For'] = forwardedFor;
    const id = requestIdOf(req);
    if (id !== undefined) headers[REQUEST_ID_HEADER] = id;
    const answer = await fetch(`http://${host}:${localPort}${call.path}`, {
      method: call.method,
      headers,
      body: call.body === undefined ? null : JSON.stringify(call.body),
      redirect: 'manual',
      signal: AbortSignal.timeout(config.CONSOLE_API_TIMEOUT_MS),
    }).catch(() => {
      throw new ApiError('SERVICE_UNAVAILABLE', { message: 'The admin API did not answer the console in time.' });
    });
    const text = await answer.text();
    const isJson = (answer.headers.get('content-type') ?? '').includes('json') && text !== '';
    return { status: answer.status, body: isJson ? (JSON.parse(text) as unknown) : null };
  };
}
