import type { ApiConfig } from './config.ts';
import { CliError } from './output.ts';

/** The header the gateway records as the audit entry's reason (docs/decisions.md#every-admin-write-is-audited). */
const AUDIT_REASON_HEADER = 'X-Audit-Log-Reason';

export interface RequestOptions {
  /** Sent as JSON. */
  body?: unknown;
  query?: Record<string, string | number | undefined>;
}

/** The admin API as one admin key sees it: each answer's JSON, or a CliError carrying the API's code. */
export interface ApiClient {
  /** The gateway's base URL, without `/v1`. */
  readonly baseUrl: string;
  /** SWITCHBOARD_TIMEOUT_MS: the bound on each request. */
  readonly timeoutMs: number;
  request<T = unknown>(method: 'GET' | 'POST' | 'DELETE', path: string, options?: RequestOptions): Promise<T>;
}

/** Seconds from a `Retry-After` header (delta-seconds or an HTTP date), or null. */
function retryAfterSeconds(header: string | null): number | null {
  if (header === null) return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const at = Date.parse(header);
  return Number.isNaN(at) ? null : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** An error answer as a CliError: the API's own code and message, the status and what it listed. */
async function apiError(response: Response): Promise<CliError> {
  const text = await response.text();
  let body: { code?: unknown; message?: unknown; errors?: unknown } = {};
  try {
    body = JSON.parse(text);
  } catch {
    // Not ours (a proxy's page): the status is all there is.
  }
  const code = typeof body.code === 'string' ? body.code : `HTTP_${response.status}`;
  let message = typeof body.message === 'string' ? body.message : `${response.status} ${response.statusText}`.trim();
  const retryAfter = retryAfterSeconds(response.headers.get('retry-after'));
  if (response.status === 503) {
    message = `${message} The service is unavailable: retry after ${retryAfter ?? 'a few'} s.`;
  } else if (response.status === 429 && retryAfter !== null) {
    message = `${message} Retry after ${retryAfter} s.`;
  }
  const details: Record<string, unknown> = { status: response.status };
  if (body.errors !== undefined) details['errors'] = body.errors;
  if (retryAfter !== null) details['retry_after'] = retryAfter;
  return new CliError(code, message, { details });
}

/** A failed request that never got an answer: the gateway is down, unreachable or too slow. */
export class ApiUnreachableError extends CliError {}

/** `reason` as UTF-8 bytes in a header (headers carry bytes; the gateway reads them as UTF-8). */
const headerText = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

/**
 * One client per run: `Authorization: Admin <key>` on every request, `X-Audit-Log-Reason` when
 * the operator gave one, and every request bounded by SWITCHBOARD_TIMEOUT_MS.
 */
export function createApiClient(config: ApiConfig, reason?: string): ApiClient {
  const baseUrl = config.SWITCHBOARD_URL.replace(/\/+$/, '').replace(/\/v1$/, '');
  return {
    baseUrl,
    timeoutMs: config.SWITCHBOARD_TIMEOUT_MS,
    async request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
      const url = new URL(`${baseUrl}${path}`);
      for (const [name, value] of Object.entries(options.query ?? {})) {
        if (value !== undefined) url.searchParams.set(name, String(value));
      }
      const headers: Record<string, string> = { authorization: `Admin ${config.SWITCHBOARD_ADMIN_KEY}` };
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      if (reason !== undefined) headers[AUDIT_REASON_HEADER] = headerText(reason);
      let response: Response;
      try {
        response = await fetch(url, {
          method,
          headers,
          body: options.body === undefined ? undefined : JSON.stringify(options.body),
          signal: AbortSignal.timeout(config.SWITCHBOARD_TIMEOUT_MS),
        });
      } catch (error) {
        const cause = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
        throw new ApiUnreachableError('API_UNREACHABLE', `No answer from ${url.origin}: ${cause}`);
      }
      if (!response.ok) throw await apiError(response);
      const text = await response.text();
      return (text === '' ? undefined : JSON.parse(text)) as T;
    },
  };
}
