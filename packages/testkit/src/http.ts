/** What a test sees of a response: `body` is parsed JSON, else the text, and undefined when empty. */
export interface Answer {
  status: number;
  headers: Headers;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whichever fields of the JSON they check
  body: any;
}

export interface CallOptions {
  /** Sent as `Authorization: <scheme> <token>`, or the bare token when scheme is '' (the default). */
  token?: string;
  scheme?: 'Admin' | 'Bot' | 'Bearer' | '';
  /** A string or bytes go as they are (give their Content-Type); anything else goes as JSON. */
  body?: unknown;
  headers?: Record<string, string>;
  /** Abandons the request (rejecting with a TimeoutError) when no full answer came within this. */
  timeoutMs?: number;
  /** `manual` to see a redirect itself rather than where it leads (default `follow`). */
  redirect?: 'follow' | 'manual';
}

/** One HTTP request, its answer read to the end. */
export async function call(method: string, url: string, options: CallOptions = {}): Promise<Answer> {
  const headers = new Headers(options.headers);
  if (options.token !== undefined) {
    const scheme = options.scheme ?? '';
    headers.set('authorization', scheme === '' ? options.token : `${scheme} ${options.token}`);
  }
  let body: string | Uint8Array | undefined;
  if (typeof options.body === 'string' || options.body instanceof Uint8Array) {
    body = options.body;
  } else if (options.body !== undefined) {
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
    body = JSON.stringify(options.body);
  }
  const signal = options.timeoutMs === undefined ? undefined : AbortSignal.timeout(options.timeoutMs);
  const response = await fetch(url, { method, headers, body, signal, redirect: options.redirect ?? 'follow' });
  const text = await response.text();
  const isJson = response.headers.get('content-type')?.includes('json') ?? false;
  return {
    status: response.status,
    headers: response.headers,
    body: text === '' ? undefined : isJson ? JSON.parse(text) : text,
  };
}
