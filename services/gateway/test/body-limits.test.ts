import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { call } from '@switchboard/testkit/http';
import { createWebhookFixture, type WebhookFixture } from '@switchboard/testkit/webhooks';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { uniqueClient, useClockedGateway, useGateway } from './helpers.ts';
import { executeUrl, fixtureIds } from './webhook-execute-helpers.ts';

// No worker: every answer here is the gateway's, at enqueue or before.
const environment = useTestEnvironment();
/** Short read timeouts, so stalled bodies end within a test. */
const IDLE_TIMEOUT_MS = 1_500;
const TOTAL_TIMEOUT_MS = 4_000;
const timeouts = {
  WEBHOOK_BODY_IDLE_TIMEOUT_MS: String(IDLE_TIMEOUT_MS),
  WEBHOOK_BODY_TIMEOUT_MS: String(TOTAL_TIMEOUT_MS),
};
const gateway = useGateway(environment, { RATE_LIMITS_ENABLED: 'false', ...timeouts });
const { gateway: limited } = useClockedGateway(environment, 'body-limits', timeouts);

interface Ended {
  /** The answer's status, 0 when the connection closed without one. */
  status: number;
  elapsedMs: number;
}

interface Stalled {
  /** Resolves once the headers and the first bytes are written to the connection. */
  sent: Promise<void>;
  ended: Promise<Ended>;
  destroy(): void;
}

/** The first 10 bytes of a gzip stream: its header, and not a byte of data. */
const GZIP_HEADER = gzipSync(Buffer.from('{"content":"x"}')).subarray(0, 10);

/**
 * An execution that sends its headers and a first morsel of its body, then nothing more, on a
 * connection of its own: `gzip` a chunked gzip body of only its header, `declared` a
 * Content-Length of 1 MiB and one byte of it, `slow` a chunked JSON body a byte per `everyMs`.
 */
function stall(
  url: string,
  kind: 'gzip' | 'declared' | { everyMs: number },
  headers: Record<string, string> = {},
): Stalled {
  const started = performance.now();
  const bodyHeaders: Record<string, string> =
    kind === 'gzip'
      ? { 'content-encoding': 'gzip', 'transfer-encoding': 'chunked' }
      : kind === 'declared'
        ? { 'content-length': String(1024 * 1024) }
        : { 'transfer-encoding': 'chunked' };
  const sent = request(url, {
    method: 'POST',
    agent: false,
    headers: { 'content-type': 'application/json', ...bodyHeaders, ...headers },
  });
  let drip: NodeJS.Timeout | undefined;
  const ended = new Promise<Ended>((resolve) => {
    const end = (status: number) => {
      clearInterval(drip);
      resolve({ status, elapsedMs: performance.now() - started });
    };
    sent.on('response', (response) => {
      response.resume();
      response.on('end', () => end(response.statusCode ?? 0));
      response.on('error', () => end(response.statusCode ?? 0));
    });
    sent.on('error', () => end(0));
    sent.on('close', () => end(0));
  });
  const written = new Promise<void>((resolve) => {
    if (kind === 'gzip') sent.write(GZIP_HEADER, () => resolve());
    else sent.write('{', () => resolve());
  });
  if (typeof kind === 'object') drip = setInterval(() => sent.write(' '), kind.everyMs);
  return { sent: written, ended, destroy: () => sent.destroy() };
}

/** Five gzip headers and three 1 MiB bodies of one byte: what held every execution of a process at 503. */
function stallEight(url: string): Stalled[] {
  return [
    ...Array.from({ length: 5 }, () => stall(url, 'gzip')),
    ...Array.from({ length: 3 }, () => stall(url, 'declared')),
  ];
}

async function timedExecute(hook: WebhookFixture): Promise<{ status: number; elapsedMs: number }> {
  const started = performance.now();
  const answer = await call('POST', executeUrl(gateway, hook), { body: { content: 'x' } });
  return { status: answer.status, elapsedMs: performance.now() - started };
}

describe('stalled bodies (issue 51): checked before they are read, bounded while they are', () => {
  it('eight idle connections at a real webhook leave room for every other execution, and end with 408 within the read timeout', async () => {
    const hook = await createWebhookFixture(gateway.pool);
    const stalled = stallEight(executeUrl(gateway, hook));
    try {
      await Promise.all(stalled.map((one) => one.sent));
      // Their headers went before this request's: the gateway has taken them in by its answer.
      expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
      for (let attempt = 0; attempt < 3; attempt += 1) {
        const execute = await timedExecute(hook);
        expect(execute.status).toBe(204);
        // Slack for a busy machine; before, it was 503 until the senders gave up.
        expect(execute.elapsedMs).toBeLessThan(1_000);
      }
      const ended = await Promise.all(stalled.map((one) => one.ended));
      for (const { status, elapsedMs } of ended) {
        expect([0, 408]).toContain(status);
        expect(elapsedMs).toBeLessThan(IDLE_TIMEOUT_MS + 3_000);
      }
      expect(ended.filter((one) => one.status === 408).length).toBeGreaterThan(0);
    } finally {
      for (const one of stalled) one.destroy();
    }
  });

  it('at an unknown webhook or with a wrong token: 404 at once, without waiting for a byte of the body', async () => {
    const hook = await createWebhookFixture(gateway.pool);
    const targets = [
      { webhookId: fixtureIds.next(), token: hook.token },
      { webhookId: hook.webhookId, token: 'x'.repeat(64) },
    ];
    for (const target of targets) {
      const stalled = stallEight(executeUrl(gateway, target));
      try {
        const ended = await Promise.all(stalled.map((one) => one.ended));
        for (const { status, elapsedMs } of ended) {
          expect(status).toBe(404);
          expect(elapsedMs).toBeLessThan(IDLE_TIMEOUT_MS);
        }
      } finally {
        for (const one of stalled) one.destroy();
      }
      expect((await timedExecute(hook)).status).toBe(204);
    }
  });

  it('a body that keeps trickling is cut at the total timeout', async () => {
    const hook = await createWebhookFixture(gateway.pool);
    // A byte well within every idle timeout: only the total bound ends it.
    const trickle = stall(executeUrl(gateway, hook), { everyMs: 200 });
    try {
      const { status, elapsedMs } = await trickle.ended;
      expect([0, 408]).toContain(status);
      expect(elapsedMs).toBeGreaterThan(TOTAL_TIMEOUT_MS - 500);
      expect(elapsedMs).toBeLessThan(TOTAL_TIMEOUT_MS + 3_000);
    } finally {
      trickle.destroy();
    }
  });

  it('a timed-out body spends from the failure budget of its client IP', async () => {
    const hook = await createWebhookFixture(limited.pool);
    const client = uniqueClient();
    // The code-host route: its own rate limit (200 a minute) is not what refuses here.
    const url = executeUrl(limited, hook, '/github');
    const stalled = Array.from({ length: 60 }, () => stall(url, 'declared', { ...client, 'x-github-event': 'ping' }));
    try {
      const ended = await Promise.all(stalled.map((one) => one.ended));
      expect(ended.every((one) => one.status === 408 || one.status === 0)).toBe(true);
    } finally {
      for (const one of stalled) one.destroy();
    }
    const after = await call('POST', url, {
      body: { zen: 'z', hook_id: 1 },
      headers: { ...client, 'X-GitHub-Event': 'ping' },
    });
    expect(after.status).toBe(429);
    // Another client was never affected.
    const other = await call('POST', url, {
      body: { zen: 'z', hook_id: 1 },
      headers: { ...uniqueClient(), 'X-GitHub-Event': 'ping' },
    });
    expect(other.status).toBe(204);
  });
});

/**
 * 4 MiB of `a&a&…`: fields without `=`, which URLSearchParams decodes in time in the square of
 * their number. At this size that is far beyond the bounds below, and a linear decoder far
 * within them even on a busy machine: the bounds tell the two apart with room on both sides.
 */
const MANY_FIELDS = 'a&'.repeat(2 * 1024 * 1024);
/** An answer to MANY_FIELDS without decoding it whole, or before the parse threads are taken. */
const AT_ONCE_MS = 5_000;

function postForm(url: string, body: string): Promise<{ status: number; elapsedMs: number }> {
  const started = performance.now();
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body }).then(
    async (answer) => {
      await answer.arrayBuffer();
      return { status: answer.status, elapsedMs: performance.now() - started };
    },
  );
}

/** A form POST on a connection of its own: `uploaded` once the whole body is written, `status` its answer's. */
function uploadForm(url: string, body: string): { uploaded: Promise<void>; status: Promise<number> } {
  const sent = request(url, {
    method: 'POST',
    agent: false,
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
  });
  const status = new Promise<number>((resolve, reject) => {
    sent.on('response', (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    sent.on('error', reject);
  });
  const uploaded = new Promise<void>((resolve) => sent.end(body, () => resolve()));
  return { uploaded, status };
}

describe('form bodies of many fields (issue 51)', () => {
  it('are answered at once: 404 at an unknown webhook, 400 at a real one', async () => {
    const hook = await createWebhookFixture(gateway.pool);
    // The parse threads start with the first large body: started here, so the bounds below
    // measure the parse, not a thread's start.
    expect(
      (
        await postForm(
          executeUrl(gateway, hook, '/slack'),
          `payload=${JSON.stringify({ text: 'warm', padding: 'p'.repeat(100 * 1024) })}`,
        )
      ).status,
    ).toBe(200);
    for (const suffix of ['', '/slack', '/github']) {
      const unknown = await postForm(
        executeUrl(gateway, { webhookId: fixtureIds.next(), token: hook.token }, suffix),
        MANY_FIELDS,
      );
      expect(unknown.status, suffix).toBe(404);
      expect(unknown.elapsedMs, suffix).toBeLessThan(AT_ONCE_MS);
      const real = await postForm(executeUrl(gateway, hook, suffix), MANY_FIELDS);
      expect(real.status, suffix).toBe(400);
      expect(real.elapsedMs, suffix).toBeLessThan(AT_ONCE_MS);
    }
  });

  it('do not hold up a real delivery parsed on the same threads', async () => {
    const hook = await createWebhookFixture(gateway.pool);
    const url = executeUrl(gateway, hook, '/slack');
    const hostile = Array.from({ length: 4 }, () => uploadForm(url, MANY_FIELDS));
    // Sent whole before the real one, and taken in by the gateway by its next answer: they
    // are on the parse threads (or queued for them) first.
    await Promise.all(hostile.map((one) => one.uploaded));
    expect((await fetch(`${gateway.url}/healthz`)).status).toBe(200);
    // 100 KiB: over WEBHOOK_PARSE_HERE_MAX_BYTES, so parsed on a parse thread behind them.
    const legitimate = postForm(
      url,
      new URLSearchParams({
        payload: JSON.stringify({ text: 'legitimate', padding: 'p'.repeat(100 * 1024) }),
      }).toString(),
    );
    const delivered = await legitimate;
    expect(delivered.status).toBe(200);
    // Slack for a busy machine, still far below the wait behind four quadratic parses
    // (packages/bench/README.md#webhook-ingest).
    expect(delivered.elapsedMs).toBeLessThan(2 * AT_ONCE_MS);
    for (const refused of await Promise.all(hostile.map((one) => one.status))) expect(refused).toBe(400);
  });
});
