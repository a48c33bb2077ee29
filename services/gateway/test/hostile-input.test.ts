import { type ClientRequest, request } from 'node:http';
import { text as readText } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { ACL, LIMITS } from '@switchboard/contracts';
import { call } from '@switchboard/testkit/http';
import { createWebhookFixture, webhookMessages } from '@switchboard/testkit/webhooks';
import { metricValue, scrapeMetrics } from '@switchboard/testkit/metrics';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { waitFor } from '@switchboard/testkit/wait';
import { createAdmin } from './admin-helpers.ts';
import { processBudgetBytes } from '../src/routes/webhooks/execute/body-budget.ts';
import { startGateway } from './helpers.ts';
import { executeUrl, messagesOf, useExecuteStack } from './webhook-execute-helpers.ts';

const environment = useTestEnvironment();
// The gateway runs in this process and the tests' 25 MiB bodies are sent from it too: a pause of
// the process (collecting those bodies' garbage, on a busy machine) stalls sender and reader
// alike, and the 5 s idle bound would answer 408 and reset a body that was only waiting for the
// process. These tests are about what the bodies hold; the arrival bounds are body-limits.test.ts's.
const stack = useExecuteStack(environment, {
  gateway: { WEBHOOK_BODY_IDLE_TIMEOUT_MS: '60000', WEBHOOK_BODY_TIMEOUT_MS: '120000' },
});

/** `{"a":{"a":…{"a":"x"}…}}`, `depth` objects deep, as raw JSON text. */
function nestedObjects(depth: number): string {
  return `${'{"a":'.repeat(depth)}"x"${'}'.repeat(depth)}`;
}

const TOO_DEEP = { code: 'INVALID_FORM_BODY', errors: [{ path: 'root', code: 'INVALID_FORMAT' }] };

describe('deeply nested JSON (docs/decisions.md#bad-input: a 400, never a 500)', () => {
  it('is refused with 400 by an admin route, at any depth past the limit', async () => {
    const admin = await createAdmin(stack.gateway.pool, [ACL.authenticate, ACL.banEmailCheck]);
    for (const depth of [65, 10_000, 100_000]) {
      const answer = await fetch(`${stack.gateway.url}/v1/admin/bans/email/check`, {
        method: 'POST',
        headers: { authorization: `Admin ${admin.key}`, 'content-type': 'application/json' },
        body: nestedObjects(depth),
      });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject(TOO_DEEP);
    }
  });

  it('is refused with 400 by webhook execution, as JSON and inside a form payload', async () => {
    const hook = await createWebhookFixture(stack.gateway.pool);
    const asJson = await fetch(executeUrl(stack.gateway, hook), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: nestedObjects(100_000),
    });
    expect(asJson.status).toBe(400);
    expect(await asJson.json()).toMatchObject(TOO_DEEP);
    const asForm = await fetch(executeUrl(stack.gateway, hook, '/slack'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ payload: nestedObjects(5_000) }).toString(),
    });
    expect(asForm.status).toBe(400);
    expect(await asForm.json()).toMatchObject(TOO_DEEP);
  });

  it('still takes real payloads with ordinary nesting', async () => {
    const hook = await createWebhookFixture(stack.gateway.pool);
    const embeds = [{ title: 't', fields: [{ name: 'n', value: 'v' }], footer: { text: 'f' } }];
    expect(
      (await call('POST', executeUrl(stack.gateway, hook), { body: { content: 'nested enough', embeds } })).status,
    ).toBe(204);
  });
});

/** Raw JSON text, so escapes such as `\u0000` and `\ud800` reach the server as a client wrote them. */
function postRaw(url: string, json: string): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: json });
}

describe('text PostgreSQL cannot store (NUL, unpaired surrogates)', () => {
  it('is refused by plain execute with a 400 naming the field, with or without ?wait=true', async () => {
    const hook = await createWebhookFixture(stack.gateway.pool);
    for (const suffix of ['', '?wait=true']) {
      const nul = await postRaw(`${executeUrl(stack.gateway, hook)}${suffix}`, '{"content":"a\\u0000b"}');
      expect(nul.status).toBe(400);
      expect(await nul.json()).toMatchObject({
        code: 'INVALID_FORM_BODY',
        errors: [{ path: 'content', code: 'INVALID_CHARACTERS' }],
      });
    }
    const surrogate = await postRaw(executeUrl(stack.gateway, hook), '{"embeds":[{"title":"half \\ud800 a pair"}]}');
    expect(surrogate.status).toBe(400);
    expect(await surrogate.json()).toMatchObject({ errors: [{ path: 'embeds.0.title', code: 'INVALID_CHARACTERS' }] });
    const name = await postRaw(executeUrl(stack.gateway, hook), '{"content":"hi","username":"bot\\u0000"}');
    expect(name.status).toBe(400);
    expect(await webhookMessages(stack.gateway.pool, hook.webhookId)).toEqual([]);
  });

  it('is cleaned in third-party formats, whose messages must post whatever they hold', async () => {
    const hook = await createWebhookFixture(stack.gateway.pool);
    const answer = await postRaw(
      executeUrl(stack.gateway, hook, '/slack'),
      '{"text":"build \\u0000passed \\udc00 on main"}',
    );
    expect(answer.status).toBe(200);
    const [stored] = await messagesOf(stack.gateway.pool, hook.webhookId);
    expect(stored!.content).toBe('build passed \ufffd on main');
  });

  it('cuts over-long third-party text to the limit (docs/decisions.md#message-limits), while plain execute refuses it', async () => {
    const hook = await createWebhookFixture(stack.gateway.pool);
    expect(
      (await call('POST', executeUrl(stack.gateway, hook, '/slack'), { body: { text: 'z'.repeat(4500) } })).status,
    ).toBe(200);
    const [stored] = await messagesOf(stack.gateway.pool, hook.webhookId);
    expect(stored!.content).toHaveLength(2000);
    expect(stored!.content.endsWith('...')).toBe(true);
    const plain = await call('POST', executeUrl(stack.gateway, hook), { body: { content: 'z'.repeat(2001) } });
    expect([plain.status, plain.body.code]).toEqual([400, 'INVALID_FORM_BODY']);
  });
});

describe('NUL in admin input (PostgreSQL text cannot hold it)', () => {
  it('is a 400 naming the field, not a 500 from the database (found by the fuzz suite)', async () => {
    const admin = await createAdmin(stack.gateway.pool, ['*']);
    const answer = await call('POST', `${stack.gateway.url}/v1/admin/api-keys`, {
      token: admin.key,
      scheme: 'Admin',
      body: { name: 'ok', acls: ['a\u0000b'] },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      code: 'INVALID_FORM_BODY',
      errors: [{ path: 'acls.0', code: 'INVALID_CHARACTERS' }],
    });
    const search = await call('POST', `${stack.gateway.url}/v1/admin/audit-logs/search`, {
      token: admin.key,
      scheme: 'Admin',
      body: { query: 'x\u0000' },
    });
    expect(search.status).toBe(400);
  });
});

describe('prototype keys (`__proto__`, `constructor`, `prototype`) in JSON bodies', () => {
  const POLLUTING =
    '{"__proto__":{"email":"a@example.com","polluted":true},"constructor":{"prototype":{"polluted":true}}}';

  it('never lend a validated body their fields: a field only under `__proto__` is missing', async () => {
    const admin = await createAdmin(stack.gateway.pool, [ACL.authenticate, ACL.banEmailCheck]);
    const answer = await fetch(`${stack.gateway.url}/v1/admin/bans/email/check`, {
      method: 'POST',
      headers: { authorization: `Admin ${admin.key}`, 'content-type': 'application/json' },
      body: POLLUTING,
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toMatchObject({ code: 'INVALID_FORM_BODY', errors: [{ path: 'email' }] });
    // Beside a real field they are dropped, and the check answers as for that field alone.
    const beside = await fetch(`${stack.gateway.url}/v1/admin/bans/email/check`, {
      method: 'POST',
      headers: { authorization: `Admin ${admin.key}`, 'content-type': 'application/json' },
      body: `{"email":"b@example.com",${POLLUTING.slice(1)}`,
    });
    expect(beside.status).toBe(200);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('post nothing through webhook execution, and pollute no prototype', async () => {
    const hook = await createWebhookFixture(stack.gateway.pool);
    const empty = await postRaw(executeUrl(stack.gateway, hook), '{"__proto__":{"content":"from the prototype"}}');
    expect(empty.status).toBe(400);
    expect(await empty.json()).toMatchObject({ code: 'CANNOT_SEND_EMPTY_MESSAGE' });
    expect((await postRaw(executeUrl(stack.gateway, hook), `{"content":"own",${POLLUTING.slice(1)}`)).status).toBe(204);
    const [stored] = await messagesOf(stack.gateway.pool, hook.webhookId);
    expect(stored?.content).toBe('own');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('snowflakes', () => {
  it('refuses an id of a million digits with a 400, without parsing it as a number', async () => {
    const admin = await createAdmin(stack.gateway.pool, [ACL.authenticate, ACL.archiveTriggerGuild]);
    const answer = await call('POST', `${stack.gateway.url}/v1/admin/archives/guild`, {
      token: admin.key,
      scheme: 'Admin',
      body: { guild_id: '9'.repeat(1_000_000) },
    });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({
      code: 'INVALID_FORM_BODY',
      errors: [{ path: 'guild_id', code: 'INVALID_SNOWFLAKE_FORMAT' }],
    });
  });
});

/** Waits until the gateway's bodies in flight hold `bytes` of its budget (its `/metrics`). */
async function waitForHeldBytes(gatewayUrl: string, bytes: number): Promise<void> {
  await waitFor(async () => {
    const { samples } = await scrapeMetrics(`${gatewayUrl}/metrics`);
    return metricValue(samples, 'webhook_body_budget_bytes', { state: 'held' }) === bytes;
  });
}

const MiB = 1024 * 1024;

/** A gateway with a 30 MiB budget for bodies in flight, and the execute URL of a webhook on it. */
async function startBudgetedGateway() {
  const gateway = await startGateway(environment, {
    RATE_LIMITS_ENABLED: 'false',
    WEBHOOK_BODY_BUDGET_BYTES: String(30 * MiB),
  });
  const hook = await createWebhookFixture(gateway.pool);
  return { gateway, url: new URL(executeUrl(gateway, hook)) };
}

/**
 * A client that declares `bytes` and sends a trickle, so its reservation stays held; returned
 * once the gateway holds it (its token is looked up before it reserves: a request sent earlier
 * could be admitted first).
 */
async function heldReservation(gatewayUrl: string, url: URL, bytes: number): Promise<ClientRequest> {
  const slow = request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'content-length': String(bytes) },
  });
  slow.on('error', () => {});
  slow.write('{"content":"');
  try {
    await waitForHeldBytes(gatewayUrl, bytes);
    return slow;
  } catch (error) {
    slow.destroy();
    throw error;
  }
}

describe('bytes of execution bodies in flight (WEBHOOK_BODY_BUDGET_BYTES)', () => {
  it('answers 503 with Retry-After before reading a body that would not fit, and admits again once bodies are done', async () => {
    const { gateway, url } = await startBudgetedGateway();
    let slow: ClientRequest | undefined;
    try {
      slow = await heldReservation(gateway.url, url, 20 * MiB);
      const refused = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'x'.repeat(11 * MiB) }),
      });
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(await refused.json()).toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
      // A small body still fits beside the held one.
      expect((await call('POST', url.href, { body: { content: 'small' } })).status).toBe(204);
      slow.destroy();
      const admitted = await waitFor(async () => {
        const answer = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ content: 'x'.repeat(11 * MiB) }),
        });
        return answer.status !== 503 && answer;
      });
      // Admitted and read: too long for a message, so the usual 400.
      expect(admitted.status).toBe(400);
    } finally {
      slow?.destroy();
      await gateway.close();
    }
  });

  it("splits the gateway's budget among its processes, each keeping room for one body of the largest size", () => {
    expect(processBudgetBytes(128 * MiB, 1)).toBe(128 * MiB);
    expect(processBudgetBytes(128 * MiB, 2)).toBe(64 * MiB);
    expect(processBudgetBytes(128 * MiB, 8)).toBe(LIMITS.body.inboundWebhookBytes);
  });

  it('counts a chunked body by the bytes it sends: small chunked deliveries share the budget, one growing past it is 503', async () => {
    const { gateway, url } = await startBudgetedGateway();
    const held: ClientRequest[] = [];
    try {
      // Each would have reserved the whole 25 MiB limit: only one at a time would have fitted.
      const statuses = await Promise.all(
        Array.from({ length: 8 }, (_, index) => postChunked(url, [`{"content":"chunked ${index}"}`])),
      );
      expect(statuses).toEqual(Array(8).fill(204));
      // Beside a held 20 MiB reservation, 15 MiB sent in 1 MiB chunks: refused once past the
      // 30 MiB budget, never read to the end.
      held.push(await heldReservation(gateway.url, url, 20 * MiB));
      const filler = 'x'.repeat(MiB);
      const chunks = ['{"content":"', ...Array(15).fill(filler), '"}'];
      expect(await postChunked(url, chunks)).toBe(503);
      // The refused body's bytes were given back.
      await waitForHeldBytes(gateway.url, 20 * MiB);
      expect(await postChunked(url, ['{"content":"after"}'])).toBe(204);
    } finally {
      for (const slow of held) slow.destroy();
      await gateway.close();
    }
  });
});

/**
 * POSTs `chunks` as a chunked JSON body (no Content-Length), waiting for the server to take each
 * before sending the next; answers the status, 0 when the connection failed without one.
 */
function postChunked(url: URL, chunks: string[]): Promise<number> {
  return new Promise((resolve) => {
    const sent = request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
    });
    let answered = false;
    sent.on('response', (response) => {
      answered = true;
      response.resume();
      response.on('end', () => {
        sent.destroy();
        resolve(response.statusCode ?? 0);
      });
    });
    sent.on('error', () => {
      if (!answered) resolve(0);
    });
    const writeFrom = (index: number): void => {
      if (answered) return;
      if (index === chunks.length) return void sent.end();
      if (sent.write(chunks[index])) writeFrom(index + 1);
      else sent.once('drain', () => writeFrom(index + 1));
    };
    writeFrom(0);
  });
}

/**
 * Sends the headers of a JSON POST declaring `declaredBytes` and its first two bytes, never the
 * rest. Answers the response, or fails after 10 s.
 */
function answerBeforeBody(
  url: string,
  declaredBytes: number,
): Promise<{ status: number; body: string; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    const sent = request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(declaredBytes) },
    });
    const timer = setTimeout(() => {
      sent.destroy();
      reject(new Error('no answer before the body was sent'));
    }, 10_000);
    sent.on('error', () => {});
    sent.on('response', (response) => {
      void readText(response).then((body) => {
        clearTimeout(timer);
        sent.destroy();
        resolve({ status: response.statusCode ?? 0, body, connection: response.headers.connection });
      });
    });
    sent.write('{"');
  });
}

/**
 * POSTs `body` on a connection of its own. Making a body of many megabytes blocks this process,
 * the gateway's too, for a moment that a busy machine stretches past the gateway's keep-alive
 * timeout; a pooled connection idle since before it is then closed by that timer just as the
 * request is written on it, and the request fails with ECONNRESET (a process blocked 6 s before
 * such a POST reproduces it).
 */
function postOnItsOwnConnection(
  url: string,
  contentType: string,
  body: Buffer,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(url, {
      method: 'POST',
      agent: false,
      headers: { ...headers, 'content-type': contentType, 'content-length': String(body.length) },
    });
    sent.on('error', reject);
    sent.on('response', (response) => {
      void readText(response).then((text) => resolve({ status: response.statusCode ?? 0, body: text }), reject);
    });
    sent.end(body);
  });
}

describe('large bodies, checked on a parse thread (above WEBHOOK_PARSE_HERE_MAX_BYTES)', () => {
  const padding = 'p'.repeat(200 * 1024);

  it('keep the status order of small ones: token 404 before the body, bad body 400, emptiness after it', async () => {
    const hook = await createWebhookFixture(stack.gateway.pool);
    const wrongToken = { ...hook, token: 'x'.repeat(64) };
    expect((await postRaw(executeUrl(stack.gateway, wrongToken), `{"content":"${padding}"`)).status).toBe(404);
    const notJson = await postRaw(executeUrl(stack.gateway, hook), `{"content":"${padding}"`);
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({
      code: 'INVALID_FORM_BODY',
      errors: [{ path: 'root', code: 'INVALID_FORMAT' }],
    });
    const badField = await postRaw(
      executeUrl(stack.gateway, hook),
      JSON.stringify({ content: 'x', embeds: 'not a list', padding }),
    );
    expect(badField.status).toBe(400);
    expect(await badField.json()).toMatchObject({ errors: [{ path: 'embeds' }] });
    const empty = JSON.stringify({ content: '   ', padding });
    expect((await postRaw(executeUrl(stack.gateway, wrongToken), empty)).status).toBe(404);
    const emptyAnswer = await postRaw(executeUrl(stack.gateway, hook), empty);
    expect(emptyAnswer.status).toBe(400);
    expect(await emptyAnswer.json()).toMatchObject({ code: 'CANNOT_SEND_EMPTY_MESSAGE' });
    const tooDeep = await postRaw(
      executeUrl(stack.gateway, hook),
      `{"padding":"${padding}","a":${'['.repeat(100)}${']'.repeat(100)}}`,
    );
    expect(tooDeep.status).toBe(400);
  });

  it('to an unknown webhook or with a wrong token: 404 before a byte of the body is read, on every format, whatever its size', async () => {
    const hook = await createWebhookFixture(stack.gateway.pool);
    const targets = [
      { ...hook, token: 'x'.repeat(64) },
      { ...hook, webhookId: '999999999999999999' },
    ];
    for (const target of targets) {
      for (const suffix of ['', '/github', '/sentry', '/slack']) {
        // Declares 20 MiB and sends two bytes: an answer can only come from not waiting for the rest.
        const answer = await answerBeforeBody(executeUrl(stack.gateway, target, suffix), 20 * 1024 * 1024);
        expect(answer.status, suffix).toBe(404);
        expect(JSON.parse(answer.body), suffix).toMatchObject({ code: 'UNKNOWN_WEBHOOK' });
        expect(answer.connection).toBe('close');
      }
    }
    // Declared up to 1 MiB, or chunked, a body is not read either: 404 whatever it holds.
    for (const declared of [1024 * 1024, 100]) {
      const answer = await answerBeforeBody(executeUrl(stack.gateway, targets[0]!), declared);
      expect(answer.status).toBe(404);
    }
    expect(await postChunked(new URL(executeUrl(stack.gateway, targets[0]!)), ['{"content":'])).toBe(404);
  });

  it('holding more objects and arrays than a parse thread has memory for: 400 before parsing, and the gateway lives on', async () => {
    const hook = await createWebhookFixture(stack.gateway.pool);
    const manyOf = (element: string, bytes: number) => {
      const count = Math.floor((bytes - 2) / (element.length + 1));
      return `[${`${element},`.repeat(count - 1)}${element}]`;
    };
    const tooMany = { code: 'INVALID_FORM_BODY', errors: [{ path: 'root', code: 'INVALID_FORMAT' }] };
    // 25 MiB of empty objects or arrays: 8.7 million values, more heap than the parse thread has
    // (it aborted the whole process).
    for (const element of ['{}', '[]']) {
      const body = Buffer.from(manyOf(element, 25 * 1024 * 1024));
      const answer = await postOnItsOwnConnection(executeUrl(stack.gateway, hook), 'application/json', body);
      expect(answer.status, element).toBe(400);
      expect(JSON.parse(answer.body)).toMatchObject(tooMany);
      expect((await fetch(`${stack.gateway.url}/healthz`)).status).toBe(200);
    }
    // The same inside a code host form's payload field (parsed by the format's own decoder).
    const form = await postOnItsOwnConnection(
      executeUrl(stack.gateway, hook, '/github'),
      'application/x-www-form-urlencoded',
      Buffer.from(new URLSearchParams({ payload: manyOf('{}', 8 * 1024 * 1024) }).toString()),
      { 'x-github-event': 'ping' },
    );
    expect(form.status).toBe(400);
    expect(JSON.parse(form.body)).toMatchObject({ errors: [{ path: 'payload', code: 'INVALID_FORMAT' }] });
    expect((await call('POST', executeUrl(stack.gateway, hook), { body: { content: 'still here' } })).status).toBe(204);
  });

  it('post as small ones do when valid, as JSON and as a form', async () => {
    const hook = await createWebhookFixture(stack.gateway.pool);
    const json = await postRaw(
      executeUrl(stack.gateway, hook, '/slack'),
      JSON.stringify({ text: 'large json', padding }),
    );
    expect(json.status).toBe(200);
    const form = await fetch(executeUrl(stack.gateway, hook, '/slack'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ payload: JSON.stringify({ text: 'large form', padding }) }).toString(),
    });
    expect(form.status).toBe(200);
    const stored = await messagesOf(stack.gateway.pool, hook.webhookId, 2);
    expect(stored.map((message) => message.content).sort()).toEqual(['large form', 'large json']);
  });
});
