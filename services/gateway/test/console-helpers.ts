import { expect } from 'vitest';
import { call, type Answer } from '@switchboard/testkit/http';
import { finishedOperationAnswer } from './admin-helpers.ts';

export const CONSOLE = '/console';

/** A console client: one signed-in browser, sending its cookie and the gateway's Origin. */
export interface ConsoleClient {
  cookie: string;
  get(path: string): Promise<Answer>;
  /** A form post (urlencoded), as a browser sends it from a console page. */
  post(path: string, form: Record<string, string | string[]>): Promise<Answer>;
}

export function formBody(form: Record<string, string | string[]>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(form)) {
    for (const one of Array.isArray(value) ? value : [value]) params.append(name, one);
  }
  return params.toString();
}

export function consoleRequest(
  baseUrl: string,
  method: string,
  path: string,
  options: { cookie?: string; form?: Record<string, string | string[]>; origin?: string | null } = {},
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (options.cookie) headers['Cookie'] = options.cookie;
  if (options.origin !== null && method !== 'GET') headers['Origin'] = options.origin ?? baseUrl;
  if (options.form) headers['Content-Type'] = 'application/x-www-form-urlencoded';
  return call(method, `${baseUrl}${CONSOLE}${path}`, {
    headers,
    body: options.form ? formBody(options.form) : undefined,
    redirect: 'manual',
  });
}

/** Signs in with `key` and returns the client; fails the test unless sign-in succeeded. */
export async function signInToConsole(baseUrl: string, key: string): Promise<ConsoleClient> {
  const answer = await consoleRequest(baseUrl, 'POST', '/sign-in', { form: { key } });
  expect(answer.status).toBe(303);
  const cookie = (answer.headers.get('set-cookie') ?? '').split(';')[0]!;
  expect(cookie).toMatch(/^sb_console_session=/);
  return {
    cookie,
    get: (path) => consoleRequest(baseUrl, 'GET', path, { cookie }),
    post: (path, form) => consoleRequest(baseUrl, 'POST', path, { cookie, form }),
  };
}

/** The `value` attribute of the input with `id` in a page, unescaped. */
export function inputValue(page: string, id: string): string | null {
  const match = new RegExp(`id="${id}"[^>]*value="([^"]*)"`).exec(page);
  return match
    ? match[1]!
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&')
    : null;
}

/** The text of a page without its markup, for reading outcomes as a person would. */
export function textOf(page: string): string {
  return page
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ');
}

/**
 * The page a confirmed operation form ends on, once the operation is done: the answer itself
 * when the API finished within its wait, else the result page it redirected to, read after the
 * operation's status route (the console path under /v1/admin) says it finished.
 */
export async function finishedOperationPage(
  baseUrl: string,
  client: ConsoleClient,
  key: string,
  answer: Answer,
): Promise<string> {
  if (answer.status !== 303) return answer.body as string;
  const path = answer.headers.get('location')!.slice(CONSOLE.length);
  await finishedOperationAnswer(baseUrl, `/v1/admin${path}`, key);
  return (await client.get(path)).body as string;
}
