import { createHmac, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { webhookBodyKey } from '@switchboard/contracts';
import { call } from '@switchboard/testkit/http';
import {
  channelEvents,
  createWebhookFixture,
  webhookMessages,
  type WebhookFixture,
} from '@switchboard/testkit/webhooks';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { codeHostReadPart, renderCodeHost } from '@switchboard/webhook-formats';
import { deliveriesSettled, executeUrl, messagesOf, useExecuteStack } from './webhook-execute-helpers.ts';

const require = createRequire(import.meta.url);
/** Every payload file of the package: api.github.com and the GitHub Enterprise Server versions. */
const SOURCES = ['api.github.com', 'ghes-31', 'ghes-32', 'ghes-33', 'ghes-34', 'ghes-35'];

/** An example as tests read and edit it: arbitrary JSON, reached into by path. */
// biome-ignore lint/suspicious/noExplicitAny: tests reach into and edit arbitrary example JSON
type Payload = Record<string, any>;

interface Example {
  event: string;
  payload: Payload;
}

function corpus(): Example[] {
  return SOURCES.flatMap((source) =>
    (
      require(`@octokit/webhooks-examples/${source}/index.json`) as Array<{
        name: string;
        examples: Payload[];
      }>
    ).flatMap((definition) => definition.examples.map((payload) => ({ event: definition.name, payload }))),
  );
}

function firstExample(event: string, action?: string): Payload {
  const found = corpus().find(
    (entry) => entry.event === event && (action === undefined || entry.payload['action'] === action),
  );
  if (!found) throw new Error(`no ${event} example`);
  return structuredClone(found.payload);
}

/** A real push with commits (the corpus also has tag pushes and empty ones, which post nothing). */
function pushExample(): Payload {
  const found = corpus().find(
    (entry) => entry.event === 'push' && !entry.payload['forced'] && entry.payload['commits']?.length > 0,
  );
  if (!found) throw new Error('no push example with commits');
  return structuredClone(found.payload);
}

const environment = useTestEnvironment();
const stack = useExecuteStack(environment, { worker: { WORKER_CONCURRENCY: '8' } });

/** Runs `work` over `items`, `concurrency` at a time. */
async function inParallel<T, R>(items: T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: concurrency }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  });
  await Promise.all(lanes);
  return results;
}

/** Every delivery enqueued so far was handled, and none failed. */
async function drained(): Promise<void> {
  expect(await deliveriesSettled(stack.deliveries, 60_000)).toBe(0);
}

function github(event: string, extra: Record<string, string> = {}): Record<string, string> {
  return { 'X-GitHub-Event': event, 'X-GitHub-Delivery': randomUUID(), ...extra };
}

describe('the whole @octokit/webhooks-examples corpus through HTTP (docs/decisions.md#third-party-payloads)', () => {
  it('answers 2xx to every example with its event name, and posts what the transformer renders', async () => {
    const hook = await createWebhookFixture(stack.gateway.pool);
    const examples = corpus();
    expect(examples.length).toBeGreaterThan(700);
    const statuses = await inParallel(examples, 16, async ({ event, payload }) => {
      const suffix = Math.random() < 0.5 ? '/codehost' : '/github';
      const answer = await call('POST', executeUrl(stack.gateway, hook, suffix), {
        body: payload,
        headers: github(event),
      });
      return { event, status: answer.status, body: answer.body };
    });
    const failures = statuses.filter(({ status }) => status !== 204);
    expect(failures).toEqual([]);
    const expected = examples.filter(({ event, payload }) => renderCodeHost(event, payload).kind === 'message').length;
    expect(expected).toBeGreaterThan(100);
    await messagesOf(stack.gateway.pool, hook.webhookId, expected, 60_000);
    await drained();
    expect(await webhookMessages(stack.gateway.pool, hook.webhookId)).toHaveLength(expected);
    expect(await channelEvents(stack.gateway.redis, environment.eventsStreamKey, hook.channelId)).toHaveLength(
      expected,
    );
  }, 120_000);
});

describe('code-host deliveries', () => {
  it('renders a real push as the transformer does, stored as a rich embed from "GitHub"', async () => {
    const hook = await createWebhookFixture(stack.gateway.pool);
    const payload = pushExample();
    const rendered = renderCodeHost('push', payload);
    if (rendered.kind !== 'message') throw new Error('the push example renders no message');
    expect(
      (await call('POST', executeUrl(stack.gateway, hook, '/github'), { body: payload, headers: github('push') }))
        .status,
    ).toBe(204);
    const [message] = await messagesOf(stack.gateway.pool, hook.webhookId);
    expect(message!.webhookName).toBe('GitHub');
    expect(message!.content).toBe('');
    expect(message!.embeds).toEqual(
      rendered.message.embeds.map((embed) => ({ type: 'rich', ...embed, color: embed.color ?? 0 })),
    );
    expect(message!.embeds[0]!.color).toBe(0x7289da);
  });

  it('accepts form-encoded deliveries (payload=…), and 400s a form without payload', async () => {
    const hook = await createWebhookFixture(stack.gateway.pool);
    const form = `payload=${encodeURIComponent(JSON.stringify(firstExample('issues', 'opened')))}`;
    const headers = github('issues', { 'Content-Type': 'application/x-www-form-urlencoded' });
    expect((await call('POST', executeUrl(stack.gateway, hook, '/codehost'), { body: form, headers })).status).toBe(
      204,
    );
    const [message] = await messagesOf(stack.gateway.pool, hook.webhookId);
    expect(message!.embeds[0]!.title).toContain('Issue opened');
    const missing = await call('POST', executeUrl(stack.gateway, hook, '/codehost'), { body: 'other=1', headers });
    expect(missing.status).toBe(400);
    expect(missing.body.errors[0].path).toBe('payload');
  });

  it('answers 204 and posts nothing for unknown events and a missing X-GitHub-Event; ping answers 204', async () => {
    const hook = await createWebhookFixture(stack.gateway.pool);
    expect(
      (
        await call('POST', executeUrl(stack.gateway, hook, '/codehost'), {
          body: firstExample('push'),
          headers: github('no_such_event'),
        })
      ).status,
    ).toBe(204);
    expect(
      (await call('POST', executeUrl(stack.gateway, hook, '/codehost'), { body: firstExample('push') })).status,
    ).toBe(204);
    expect((await call('POST', executeUrl(stack.gateway, hook, '/codehost'), { body: {} })).status).toBe(204);
    await drained();
    expect(await webhookMessages(stack.gateway.pool, hook.webhookId)).toEqual([]);
    expect(
      (
        await call('POST', executeUrl(stack.gateway, hook, '/codehost'), {
          body: firstExample('ping'),
          headers: github('ping'),
        })
      ).status,
    ).toBe(204);
  });

  it('drops duplicate X-GitHub-Delivery ids atomically: 20 concurrent redeliveries post once', async () => {
    const hook = await createWebhookFixture(stack.gateway.pool);
    const payload = firstExample('issues', 'opened');
    const headers = github('issues');
    const answers = await Promise.all(
      Array.from({ length: 20 }, () =>
        call('POST', executeUrl(stack.gateway, hook, '/codehost'), { body: payload, headers }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(new Array(20).fill(204));
    await messagesOf(stack.gateway.pool, hook.webhookId);
    await drained();
    expect(await webhookMessages(stack.gateway.pool, hook.webhookId)).toHaveLength(1);
    expect(await channelEvents(stack.gateway.redis, environment.eventsStreamKey, hook.channelId)).toHaveLength(1);
    // The same delivery id on another webhook is another delivery.
    const other = await createWebhookFixture(stack.gateway.pool);
    expect((await call('POST', executeUrl(stack.gateway, other, '/codehost'), { body: payload, headers })).status).toBe(
      204,
    );
    await messagesOf(stack.gateway.pool, other.webhookId);
  });

  /** Posts `payload` as a push while the queue is paused: the job as the gateway queued it. */
  async function queuedPush(hook: WebhookFixture, payload: Payload) {
    await stack.deliveries.pause();
    try {
      const answer = await call('POST', executeUrl(stack.gateway, hook, '/codehost'), {
        body: payload,
        headers: github('push'),
      });
      expect(answer.status).toBe(204);
      const [job] = (await stack.deliveries.getWaiting()).filter(
        (waiting) => waiting.data.webhookId === hook.webhookId,
      );
      return job!;
    } finally {
      await stack.deliveries.resume();
    }
  }

  it('claim-checks in S3 a large body the renderer reads, and deletes it once delivered', async () => {
    const hook = await createWebhookFixture(stack.gateway.pool);
    const payload = pushExample();
    // A commit message of 2 MiB (GitHub sends up to 25 MiB): the renderer reads it, and it is
    // far above the 64 KiB kept inline.
    payload['commits'][0]['message'] = `Big change\n\n${'p'.repeat(2 * 1024 * 1024)}`;
    const job = await queuedPush(hook, payload);
    expect(job.data.body).toMatchObject({ kind: 'stored', key: webhookBodyKey(hook.webhookId, job.data.messageId) });
    const [message] = await messagesOf(stack.gateway.pool, hook.webhookId);
    expect(JSON.stringify(message!.embeds)).toContain('Big change');
    await drained();
    expect(await stack.gateway.storage.headObject(webhookBodyKey(hook.webhookId, message!.id))).toBeNull();
  });

  it('carries only the part of a large body the renderer reads: what it never reads stays out of the queue and of S3', async () => {
    const hook = await createWebhookFixture(stack.gateway.pool);
    const payload = pushExample();
    // 2 MiB of keys no renderer reads (a real large push is mostly file lists and URLs): parsed
    // on a parse thread, which hands back the part.
    payload['padding'] = 'p'.repeat(2 * 1024 * 1024);
    payload['commits'][0]['added'] = Array.from({ length: 2000 }, (_, index) => `src/generated/file-${index}.ts`);
    const rendered = renderCodeHost('push', payload);
    if (rendered.kind !== 'message') throw new Error('the push example renders no message');
    const job = await queuedPush(hook, payload);
    expect(job.data.body.kind).toBe('json');
    expect(JSON.parse(job.data.body.text)).toEqual(JSON.parse(JSON.stringify(codeHostReadPart('push', payload))));
    expect(job.data.body.text.length).toBeLessThan(2048);
    expect(await stack.gateway.storage.headObject(webhookBodyKey(hook.webhookId, job.data.messageId))).toBeNull();
    const [message] = await messagesOf(stack.gateway.pool, hook.webhookId);
    expect(message!.embeds).toEqual(
      rendered.message.embeds.map((embed) => ({ type: 'rich', ...embed, color: embed.color ?? 0 })),
    );
  });

  it('carries in its job the part of a small body the worker reads, and the worker renders the same message from it', async () => {
    const hook = await createWebhookFixture(stack.gateway.pool);
    const payload = pushExample();
    // What the job's own JSON must carry unchanged: quotes, a line break, non-ASCII and an astral character.
    payload['head_commit']['message'] = 'Füge "Raketen" 🚀 hinzu\n\nDetails';
    payload['commits'][0]['message'] = payload['head_commit']['message'];
    // A key JSON.parse keeps as plain data: it must never reach the worker as a prototype.
    const raw = JSON.stringify(payload).replace(/^\{/, '{"__proto__":{"polluted":true},');
    const rendered = renderCodeHost('push', JSON.parse(raw));
    if (rendered.kind !== 'message') throw new Error('the push example renders no message');
    // Paused, so the job is read as the gateway queued it, before the worker takes it.
    await stack.deliveries.pause();
    try {
      const answer = await call('POST', executeUrl(stack.gateway, hook, '/codehost'), {
        body: raw,
        headers: github('push', { 'Content-Type': 'application/json' }),
      });
      expect(answer.status).toBe(204);
      const [job] = (await stack.deliveries.getWaiting()).filter(
        (waiting) => waiting.data.webhookId === hook.webhookId,
      );
      expect(job?.data.body).toEqual({
        kind: 'inline',
        value: JSON.parse(JSON.stringify(codeHostReadPart('push', JSON.parse(raw)))),
      });
      // The repository's ~90 URLs and the other copies of the author stay out of the queue.
      expect(JSON.stringify(job!.data.body).length).toBeLessThan(raw.length / 5);
      expect(Object.hasOwn(job!.data.body.value, '__proto__')).toBe(false);
      expect(Object.getPrototypeOf(job!.data.body.value)).toBe(Object.prototype);
    } finally {
      await stack.deliveries.resume();
    }
    const [message] = await messagesOf(stack.gateway.pool, hook.webhookId);
    expect(message!.embeds).toEqual(
      rendered.message.embeds.map((embed) => ({ type: 'rich', ...embed, color: embed.color ?? 0 })),
    );
    expect(JSON.stringify(message!.embeds)).toContain('Raketen');
  });
});

describe('signatures (docs/decisions.md#webhook-secrets: optional per-webhook secret)', () => {
  const secret = 'It is a secret to everybody';
  const sign = (body: string | Buffer) => createHmac('sha256', secret).update(body).digest('hex');

  it('verifies X-Hub-Signature-256 over the raw bytes when the webhook has a secret', async () => {
    const hook = await createWebhookFixture(stack.gateway.pool, { secret });
    const raw = JSON.stringify(firstExample('issues', 'opened'), null, 2);
    const json = { 'Content-Type': 'application/json' };
    const good = await call('POST', executeUrl(stack.gateway, hook, '/codehost'), {
      body: raw,
      headers: github('issues', { ...json, 'X-Hub-Signature-256': `sha256=${sign(raw)}` }),
    });
    expect(good.status).toBe(204);
    const wrong = await call('POST', executeUrl(stack.gateway, hook, '/codehost'), {
      body: raw,
      headers: github('issues', { ...json, 'X-Hub-Signature-256': `sha256=${sign('other')}` }),
    });
    expect(wrong.status).toBe(401);
    expect(wrong.body.code).toBe('INVALID_WEBHOOK_SIGNATURE');
    expect(
      (await call('POST', executeUrl(stack.gateway, hook, '/codehost'), { body: raw, headers: github('issues', json) }))
        .status,
    ).toBe(401);
    const form = `payload=${encodeURIComponent(raw)}`;
    const formHeaders = {
      'Content-Type': 'application/x-www-form-urlencoded',
      'X-Hub-Signature-256': `sha256=${sign(form)}`,
    };
    expect(
      (
        await call('POST', executeUrl(stack.gateway, hook, '/github'), {
          body: form,
          headers: github('issues', formHeaders),
        })
      ).status,
    ).toBe(204);
    await messagesOf(stack.gateway.pool, hook.webhookId, 2);
    await drained();
    expect(await webhookMessages(stack.gateway.pool, hook.webhookId)).toHaveLength(2);
  });

  it('checks the token before the signature, and ignores signatures without a secret', async () => {
    const hook = await createWebhookFixture(stack.gateway.pool, { secret });
    const bad = await call('POST', `${executeUrl(stack.gateway, { ...hook, token: 'y'.repeat(64) }, '/codehost')}`, {
      body: {},
      headers: { 'X-Hub-Signature-256': 'sha256=00' },
    });
    expect(bad.status).toBe(404);
    const open = await createWebhookFixture(stack.gateway.pool);
    const unsigned = await call('POST', executeUrl(stack.gateway, open, '/codehost'), {
      body: firstExample('ping'),
      headers: github('ping', { 'X-Hub-Signature-256': 'sha256=nonsense' }),
    });
    expect(unsigned.status).toBe(204);
  });

  it('verifies Sentry-Hook-Signature on the error tracker', async () => {
    const hook = await createWebhookFixture(stack.gateway.pool, { secret });
    const raw = JSON.stringify({ action: 'created', data: {} });
    const json = { 'Content-Type': 'application/json', 'Sentry-Hook-Resource': 'issue' };
    expect(
      (
        await call('POST', executeUrl(stack.gateway, hook, '/sentry'), {
          body: raw,
          headers: { ...json, 'Sentry-Hook-Signature': sign(raw) },
        })
      ).status,
    ).toBe(204);
    const wrong = await call('POST', executeUrl(stack.gateway, hook, '/errortracker'), {
      body: raw,
      headers: { ...json, 'Sentry-Hook-Signature': sign('x') },
    });
    expect(wrong.status).toBe(401);
  });
});
