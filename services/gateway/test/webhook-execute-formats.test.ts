import { describe, expect, it } from 'vitest';
import { call } from '@switchboard/testkit/http';
import { createWebhookFixture, webhookMessages, type StoredRow } from '@switchboard/testkit/webhooks';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import {
  chatAppBodySchema,
  renderChatApp,
  renderErrorTracker,
  SLACK_PRESET_COLORS,
  type ErrorTrackerHeaders,
  type RenderedMessage,
} from '@switchboard/webhook-formats';
// The transformer's own test data: Sentry's published payloads.
import {
  errorPayload,
  eventAlertPayload,
  issuePayload,
  metricAlertPayload,
} from '../../../packages/webhook-formats/test/support/sentry.ts';
import { deliveriesSettled, executeUrl, messagesOf, useExecuteStack } from './webhook-execute-helpers.ts';

const environment = useTestEnvironment();
const stack = useExecuteStack(environment);

/** What the worker stores for a rendered message: embeds become `rich`, colour 0 when unset. */
function asStored(message: RenderedMessage) {
  return {
    content: message.content,
    embeds: message.embeds.map((embed) => ({ type: 'rich', ...embed, color: embed.color ?? 0 })),
  };
}

function onlyMessage(rows: StoredRow[]): StoredRow {
  expect(rows).toHaveLength(1);
  return rows[0]!;
}

describe('chat app (Slack incoming webhooks, docs/decisions.md#fluxer-chat-app-deliveries, #third-party-payloads)', () => {
  it('answers 200 with exactly `ok` as text/html and stores the text', async () => {
    const hook = await createWebhookFixture(stack.gateway.pool);
    for (const suffix of ['/chatapp', '/slack']) {
      const answer = await call('POST', executeUrl(stack.gateway, hook, suffix), {
        body: { text: `hello via ${suffix}` },
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toBe('ok');
      expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    }
    const rows = await messagesOf(stack.gateway.pool, hook.webhookId, 2);
    expect(rows.map((row) => row.content).sort()).toEqual(['hello via /chatapp', 'hello via /slack']);
  });

  it('maps attachments, colour presets, fields, footer, ts, username and icon_url', async () => {
    const hook = await createWebhookFixture(stack.gateway.pool);
    const body = {
      text: 'Deploy finished',
      username: 'Deploy Bot',
      icon_url: 'https://example.com/bot.png',
      channel: '#ignored',
      attachments: [
        {
          color: 'good',
          pretext: 'Production',
          title: 'Release 1.2.3',
          title_link: 'https://example.com/releases/1.2.3',
          text: 'All checks passed',
          author_name: 'ci',
          author_link: 'https://example.com/ci',
          fields: [
            { title: 'Region', value: 'eu-west', short: true },
            { title: 'Skipped', value: '' },
          ],
          footer: 'deployer',
          ts: 1_700_000_000,
          image_url: 'https://example.com/graph.png',
          thumb_url: 'https://example.com/thumb.png',
        },
        { color: 'danger', text: 'one warning' },
        { color: 'warning', fallback: 'only a fallback' },
      ],
    };
    const answer = await call('POST', executeUrl(stack.gateway, hook, '/slack'), { body });
    expect(answer.status).toBe(200);
    const stored = onlyMessage(await messagesOf(stack.gateway.pool, hook.webhookId));
    const rendered = renderChatApp(chatAppBodySchema.parse(body));
    if (rendered.kind !== 'message') throw new Error('expected a message');
    expect({ content: stored.content, embeds: stored.embeds }).toEqual(asStored(rendered.message));
    expect(stored.webhookName).toBe('Deploy Bot');
    expect(stored.webhookAvatarUrl).toBe('https://example.com/bot.png');
    expect(stored.embeds.map((embed) => embed.color)).toEqual([
      SLACK_PRESET_COLORS['good'],
      SLACK_PRESET_COLORS['danger'],
      SLACK_PRESET_COLORS['warning'],
    ]);
    expect(stored.embeds[0]).toMatchObject({
      title: 'Release 1.2.3',
      url: 'https://example.com/releases/1.2.3',
      description: 'Production\nAll checks passed',
      fields: [{ name: 'Region', value: 'eu-west', inline: true }],
      footer: { text: 'deployer' },
      timestamp: new Date(1_700_000_000_000).toISOString(),
    });
  });

  it('cuts long Slack payloads to the message limits instead of failing them', async () => {
    const hook = await createWebhookFixture(stack.gateway.pool);
    const attachments = Array.from({ length: 12 }, (_, index) => ({ title: `a${index}`, text: 'x'.repeat(1500) }));
    const answer = await call('POST', executeUrl(stack.gateway, hook, '/chatapp'), {
      body: { text: 'y'.repeat(5000), attachments },
    });
    expect(answer.status).toBe(200);
    const stored = onlyMessage(await messagesOf(stack.gateway.pool, hook.webhookId));
    expect(stored.content.length).toBeLessThanOrEqual(2000);
    expect(stored.embeds.length).toBeLessThanOrEqual(10);
    const total = stored.embeds.reduce(
      (sum, embed) => sum + (embed.title?.length ?? 0) + (embed.description?.length ?? 0),
      0,
    );
    expect(total).toBeLessThanOrEqual(6000);
  });

  it('accepts Slack form posts (payload=…), ignores ?wait, and answers JSON errors', async () => {
    const hook = await createWebhookFixture(stack.gateway.pool);
    const form = `payload=${encodeURIComponent(JSON.stringify({ text: 'from a form' }))}`;
    const answer = await call('POST', `${executeUrl(stack.gateway, hook, '/slack')}?wait=true`, {
      body: form,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('ok');
    expect(onlyMessage(await messagesOf(stack.gateway.pool, hook.webhookId)).content).toBe('from a form');
    const empty = await call('POST', executeUrl(stack.gateway, hook, '/slack'), {
      body: { attachments: [{ color: 'good' }] },
    });
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe('CANNOT_SEND_EMPTY_MESSAGE');
    const badToken = await call('POST', executeUrl(stack.gateway, { ...hook, token: 'z'.repeat(64) }, '/slack'), {
      body: { text: 'x' },
    });
    expect(badToken.status).toBe(404);
    expect(badToken.body.code).toBe('UNKNOWN_WEBHOOK');
  });
});

/** Real Sentry deliveries: the resource in Sentry-Hook-Resource, the action in the body. */
const SENTRY_CASES: Array<{ name: string; headers: ErrorTrackerHeaders; payload: unknown }> = [
  { name: 'issue created', headers: { resource: 'issue' }, payload: issuePayload('created') },
  { name: 'event_alert triggered', headers: { resource: 'event_alert' }, payload: eventAlertPayload },
  { name: 'metric_alert critical', headers: { resource: 'metric_alert' }, payload: metricAlertPayload('critical') },
  { name: 'error created', headers: { resource: 'error' }, payload: errorPayload },
  // Fluxer's format: the event in X-Sentry-Event.
  { name: 'X-Sentry-Event issue.created', headers: { fluxerEvent: 'issue.created' }, payload: issuePayload('created') },
  {
    name: 'X-Sentry-Event issue.resolved',
    headers: { fluxerEvent: 'issue.resolved' },
    payload: issuePayload('resolved', { status: 'resolved' }),
  },
];

function sentryHeaders(headers: ErrorTrackerHeaders): Record<string, string> {
  return {
    ...(headers.resource ? { 'Sentry-Hook-Resource': headers.resource } : {}),
    ...(headers.fluxerEvent ? { 'X-Sentry-Event': headers.fluxerEvent } : {}),
  };
}

describe('error tracker (Sentry, docs/decisions.md#fluxer-error-tracker-deliveries, #third-party-payloads)', () => {
  it.each(SENTRY_CASES)('$name: 204, stored as the transformer renders it', async ({ headers, payload }) => {
    const hook = await createWebhookFixture(stack.gateway.pool);
    const answer = await call('POST', executeUrl(stack.gateway, hook, '/errortracker'), {
      body: payload,
      headers: sentryHeaders(headers),
    });
    expect(answer.status).toBe(204);
    const rendered = renderErrorTracker(headers, payload);
    if (rendered.kind !== 'message') throw new Error(`expected a message: ${rendered.reason}`);
    const stored = onlyMessage(await messagesOf(stack.gateway.pool, hook.webhookId));
    expect({ content: stored.content, embeds: stored.embeds }).toEqual(asStored(rendered.message));
    expect(stored.webhookName).toBe('Sentry');
    expect(stored.embeds).toHaveLength(1);
  });

  it('renders the issue with its title, link, level colour and fields', async () => {
    const hook = await createWebhookFixture(stack.gateway.pool);
    await call('POST', executeUrl(stack.gateway, hook, '/sentry'), {
      body: issuePayload('created'),
      headers: { 'Sentry-Hook-Resource': 'issue' },
    });
    const embed = onlyMessage(await messagesOf(stack.gateway.pool, hook.webhookId)).embeds[0]!;
    expect(embed.title).toContain('ReferenceError: blooopy is not defined');
    expect(embed.url).toBe('https://sentry.io/organizations/test-org/issues/1170820242/');
    expect(embed.color).toBe(0xeb4841);
    expect(JSON.stringify(embed.fields)).toContain('FRONT-END-9');
  });

  it('answers 204 and posts nothing for {}, a missing header and an unknown resource; 404 for a bad token', async () => {
    const hook = await createWebhookFixture(stack.gateway.pool);
    expect(
      (
        await call('POST', executeUrl(stack.gateway, hook, '/sentry'), {
          body: {},
          headers: { 'X-Sentry-Event': 'issue.created' },
        })
      ).status,
    ).toBe(204);
    expect(
      (await call('POST', executeUrl(stack.gateway, hook, '/sentry'), { body: issuePayload('created') })).status,
    ).toBe(204);
    expect(
      (
        await call('POST', executeUrl(stack.gateway, hook, '/sentry'), {
          body: { action: 'x', data: {} },
          headers: { 'Sentry-Hook-Resource': 'seer' },
        })
      ).status,
    ).toBe(204);
    const badToken = await call('POST', executeUrl(stack.gateway, { ...hook, token: 'z'.repeat(64) }, '/sentry'), {
      body: issuePayload('created'),
    });
    expect(badToken.status).toBe(404);
    expect(await deliveriesSettled(stack.deliveries)).toBe(0);
    expect(await webhookMessages(stack.gateway.pool, hook.webhookId)).toEqual([]);
  });
});
