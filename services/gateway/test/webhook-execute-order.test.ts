import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '@switchboard/testkit/http';
import { createWebhookFixture, webhookMessages, type WebhookFixture } from '@switchboard/testkit/webhooks';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { uniqueClient, useClockedGateway, useGateway } from './helpers.ts';

// No worker runs in this file: every case is decided by the gateway before or at enqueue.
const environment = useTestEnvironment();
const gateway = useGateway(environment, {
  TRUSTED_PROXY_HOPS: '1',
  RATE_LIMITS_ENABLED: 'false',
  WEBAPP_URL: 'https://app.switchboard.test',
});
/** Rate limits on, deciding by a clock only this file moves: refills never race the requests. */
const { gateway: limited, clock } = useClockedGateway(environment, 'execute-order');
let webhook: WebhookFixture;

const BAD_TOKEN = 'x'.repeat(64);
const FORMAT_PATHS = ['', '/codehost', '/github', '/errortracker', '/sentry', '/chatapp', '/slack'];

beforeAll(async () => {
  webhook = await createWebhookFixture(gateway.pool);
});

function urlWith(token: string, suffix = '', id = webhook.webhookId): string {
  return `${gateway.url}/v1/webhooks/${id}/${token}${suffix}`;
}

describe('check order: rate limit, origin, path, token (before a byte of the body is read), body, then emptiness', () => {
  it('bad body and bad token: 404 UNKNOWN_WEBHOOK, the body unread, on every format', async () => {
    for (const suffix of FORMAT_PATHS) {
      const answer = await call('POST', urlWith(BAD_TOKEN, suffix), {
        body: '{"content": ',
        headers: { 'Content-Type': 'application/json' },
      });
      expect(answer.status, suffix).toBe(404);
      expect(answer.body).toMatchObject({ code: 'UNKNOWN_WEBHOOK' });
    }
    expect((await call('POST', urlWith(BAD_TOKEN), { body: { content: 'x', embeds: 'not a list' } })).status).toBe(404);
    expect((await call('POST', urlWith(BAD_TOKEN, '/codehost'), { body: [1, 2] })).status).toBe(404);
  });

  it('bad body and the right token: 400, on every format', async () => {
    for (const suffix of FORMAT_PATHS) {
      const answer = await call('POST', urlWith(webhook.token, suffix), {
        body: '{"content": ',
        headers: { 'Content-Type': 'application/json' },
      });
      expect(answer.status, suffix).toBe(400);
      expect(answer.body).toMatchObject({ code: 'INVALID_FORM_BODY', errors: [{ path: 'root' }] });
    }
    const wrongType = await call('POST', urlWith(webhook.token), { body: { content: 'x', embeds: 'not a list' } });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.errors[0].path).toBe('embeds');
  });

  it('empty body and bad token: 404 UNKNOWN_WEBHOOK (emptiness is checked after the token)', async () => {
    for (const body of [{}, { content: '' }, undefined]) {
      const answer = await call('POST', urlWith(BAD_TOKEN), { body });
      expect(answer.status).toBe(404);
      expect(answer.body.code).toBe('UNKNOWN_WEBHOOK');
    }
    expect((await call('POST', urlWith(BAD_TOKEN, '/chatapp'), { body: {} })).status).toBe(404);
  });

  it('empty body and the right token: 400 CANNOT_SEND_EMPTY_MESSAGE (plain and chat app)', async () => {
    for (const suffix of ['', '/chatapp', '/slack']) {
      const answer = await call('POST', urlWith(webhook.token, suffix), { body: {} });
      expect(answer.status, suffix).toBe(400);
      expect(answer.body.code).toBe('CANNOT_SEND_EMPTY_MESSAGE');
    }
  });

  it('a valid body with a wrong token or an unknown id: 404 UNKNOWN_WEBHOOK on every format', async () => {
    const bodies: Record<string, unknown> = {
      '': { content: 'Test' },
      '/chatapp': { text: 'x' },
      '/slack': { text: 'x' },
    };
    for (const suffix of FORMAT_PATHS) {
      const body = bodies[suffix] ?? {};
      expect((await call('POST', urlWith('invalid_token', suffix), { body })).status, suffix).toBe(404);
      expect((await call('POST', urlWith(webhook.token, suffix, '999999999999999999'), { body })).status, suffix).toBe(
        404,
      );
    }
  });

  it('path parameters come before the body: a non-numeric id or an over-long token is 400', async () => {
    const badId = await call('POST', urlWith(webhook.token, '', 'not-a-number'), {
      body: '{',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(badId.status).toBe(400);
    expect(badId.body.errors[0].path).toBe('webhook_id');
    const longToken = await call('POST', urlWith('t'.repeat(257)), { body: { content: 'x' } });
    expect(longToken.status).toBe(400);
    expect(longToken.body.errors[0].path).toBe('token');
  });

  it('content over 2000 characters is 400 with the field path (404 with a wrong token)', async () => {
    const answer = await call('POST', urlWith(webhook.token), { body: { content: 'a'.repeat(2001) } });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].path).toBe('content');
    expect((await call('POST', urlWith(BAD_TOKEN), { body: { content: 'a'.repeat(2001) } })).status).toBe(404);
    const embeds = Array.from({ length: 11 }, (_, index) => ({ title: `e${index}` }));
    expect((await call('POST', urlWith(webhook.token), { body: { embeds } })).status).toBe(400);
    const tooMuchText = Array.from({ length: 2 }, () => ({ description: 'd'.repeat(3500) }));
    const total = await call('POST', urlWith(webhook.token), { body: { embeds: tooMuchText } });
    expect(total.status).toBe(400);
    expect(total.body.errors[0].path).toBe('embeds');
  });

  it('none of the rejected requests posted anything', async () => {
    expect(await webhookMessages(gateway.pool, webhook.webhookId)).toEqual([]);
  });
});

describe('body reading', () => {
  it('a content type other than JSON or a form is 415', async () => {
    const answer = await call('POST', urlWith(webhook.token), {
      body: 'hello',
      headers: { 'Content-Type': 'text/plain' },
    });
    expect(answer.status).toBe(415);
    expect(answer.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('accepts bodies up to 25 MiB and answers 413 above (docs/decisions.md#body-size-limits)', async () => {
    const filler = 'x'.repeat(25 * 1024 * 1024 - 100);
    // No X-GitHub-Event: the event '', answered 204 and never posted.
    const fits = await call('POST', urlWith(webhook.token, '/codehost'), {
      body: JSON.stringify({ filler }),
      headers: { 'Content-Type': 'application/json' },
    });
    expect(fits.status).toBe(204);
    const tooBig = await call('POST', urlWith(webhook.token, '/codehost'), {
      body: JSON.stringify({ filler: `${filler}${'y'.repeat(200)}` }),
      headers: {
        'Content-Type': 'application/json',
      },
    });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.code).toBe('PAYLOAD_TOO_LARGE');
  });
});

describe('origin block (docs/decisions.md#fluxer-webhook-routes-and-check-order: plain execute only)', () => {
  it('refuses plain execute from the web app origin with 403 INVALID_API_ORIGIN, before anything else', async () => {
    const blocked = await call('POST', urlWith(BAD_TOKEN), {
      body: '{',
      headers: { 'Content-Type': 'application/json', Origin: 'https://app.switchboard.test' },
    });
    expect(blocked.status).toBe(403);
    expect(blocked.body.code).toBe('INVALID_API_ORIGIN');
    const elsewhere = await call('POST', urlWith(BAD_TOKEN), {
      body: { content: 'x' },
      headers: { Origin: 'https://elsewhere.test' },
    });
    expect(elsewhere.status).toBe(404);
    const slack = await call('POST', urlWith(BAD_TOKEN, '/slack'), {
      body: { text: 'x' },
      headers: { Origin: 'https://app.switchboard.test' },
    });
    expect(slack.status).toBe(404);
  });
});

describe('methods', () => {
  it('answers 405 with Allow on the format paths and for unknown methods on the token path', async () => {
    const get = await fetch(urlWith(webhook.token, '/codehost'));
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const put = await fetch(urlWith(webhook.token), { method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toContain('POST');
  });
});

/** Accepted requests: refusals would spend a failure budget (webhook-execute-failures.test.ts). */
const ACCEPTED: Record<string, { body: unknown; headers?: Record<string, string> }> = {
  '': { body: { content: 'x' } },
  '/chatapp': { body: { text: 'x' } },
  '/slack': { body: { text: 'x' } },
  '/codehost': { body: { zen: 'z', hook_id: 1 }, headers: { 'X-GitHub-Event': 'ping' } },
  '/github': { body: { zen: 'z', hook_id: 1 }, headers: { 'X-GitHub-Event': 'ping' } },
  '/sentry': { body: { action: 'created', data: {} }, headers: { 'Sentry-Hook-Resource': 'installation' } },
  '/errortracker': { body: { action: 'created', data: {} }, headers: { 'Sentry-Hook-Resource': 'installation' } },
};

function send(hook: WebhookFixture, suffix: string, client: Record<string, string>) {
  const { body, headers } = ACCEPTED[suffix]!;
  return call('POST', `${limited.url}/v1/webhooks/${hook.webhookId}/${hook.token}${suffix}`, {
    body,
    headers: { ...headers, ...client },
  });
}

describe('rate limits (docs/decisions.md#fluxer-webhook-rate-limits)', () => {
  it('plain and chat app share webhook:execute (60 a minute, outside the global limit), per webhook', async () => {
    const hook = await createWebhookFixture(limited.pool);
    const client = uniqueClient();
    for (let index = 0; index < 60; index += 1) {
      const answer = await send(hook, index % 2 === 0 ? '' : '/chatapp', client);
      expect(answer.status).toBeLessThan(300);
    }
    const refused = await send(hook, '/slack', client);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'RATE_LIMITED', global: false });
    expect(Number(refused.headers.get('retry-after'))).toBe(1);
    // Another bucket (code host) and another webhook are untouched.
    expect((await send(hook, '/github', client)).status).toBe(204);
    const other = await createWebhookFixture(limited.pool);
    expect((await send(other, '', client)).status).toBe(204);
  });

  it('code host and error tracker share webhook:codehost (200 a minute)', async () => {
    const hook = await createWebhookFixture(limited.pool);
    const client = uniqueClient();
    for (let index = 0; index < 200; index += 1) {
      const answer = await send(hook, index % 2 === 0 ? '/codehost' : '/sentry', client);
      expect(answer.status).toBeLessThan(300);
      expect(answer.headers.get('x-ratelimit-limit')).toBe('200');
    }
    expect((await send(hook, '/errortracker', client)).status).toBe(429);
    // One refill (300 ms) later, exactly one more.
    await clock.advance(300);
    expect((await send(hook, '/sentry', client)).status).toBeLessThan(300);
    expect((await send(hook, '/codehost', client)).status).toBe(429);
    expect((await send(hook, '', client)).status).toBe(204);
  });
});
