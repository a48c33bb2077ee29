import { describe, expect, it } from 'vitest';
import { useTestEnvironment } from '@switchboard/testkit';
import {
  chatAppBodySchema,
  renderChatApp,
  renderErrorTracker,
  SLACK_PRESET_COLORS,
  type ErrorTrackerHeaders,
  type RenderedMessage,
} from '@switchboard/webhook-formats';
import {
  createWebhookFixture,
  deliveriesQueue,
  deliveriesSettled,
  executeUrl,
  messagesOf,
  post,
  webhookMessages,
  type StoredRow,
  useExecuteStack,
} from './webhook-execute-helpers.ts';

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

describe('chat app (Slack incoming webhooks, reference §3.3, decisions §9)', () => {
  it('answers 200 with exactly `ok` as text/html and stores the text', async () => {
    const hook = await createWebhookFixture(stack.gateway.pool);
    for (const suffix of ['/chatapp', '/slack']) {
      const answer = await post(executeUrl(stack.gateway, hook, suffix), { text: `hello via ${suffix}` });
      expect(answer.status).toBe(200);
      expect(answer.text).toBe('ok');
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
    const answer = await post(executeUrl(stack.gateway, hook, '/slack'), body);
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
    const answer = await post(executeUrl(stack.gateway, hook, '/chatapp'), { text: 'y'.repeat(5000), attachments });
    expect(answer.status).toBe(200);
    const stored = onlyMessage(await messagesOf(stack.gateway.pool, hook.webhookId));
    expect(stored.content.length).toBeLessThanOrEqual(2000);
    expect(stored.embeds.length).toBeLessThanOrEqual(10);
    const total = stored.embeds.reduce((sum, embed) => sum + (embed.title?.length ?? 0) + (embed.description?.length ?? 0), 0);
    expect(total).toBeLessThanOrEqual(6000);
  });

  it('accepts Slack form posts (payload=…), ignores ?wait, and answers JSON errors', async () => {
    const hook = await createWebhookFixture(stack.gateway.pool);
    const form = `payload=${encodeURIComponent(JSON.stringify({ text: 'from a form' }))}`;
    const answer = await post(`${executeUrl(stack.gateway, hook, '/slack')}?wait=true`, form, { 'Content-Type': 'application/x-www-form-urlencoded' });
    expect(answer.status).toBe(200);
    expect(answer.text).toBe('ok');
    expect(onlyMessage(await messagesOf(stack.gateway.pool, hook.webhookId)).content).toBe('from a form');
    const empty = await post(executeUrl(stack.gateway, hook, '/slack'), { attachments: [{ color: 'good' }] });
    expect(empty.status).toBe(400);
    expect(empty.json.code).toBe('CANNOT_SEND_EMPTY_MESSAGE');
    const badToken = await post(executeUrl(stack.gateway, { ...hook, token: 'z'.repeat(64) }, '/slack'), { text: 'x' });
    expect(badToken.status).toBe(404);
    expect(badToken.json.code).toBe('UNKNOWN_WEBHOOK');
  });
});

const installation = { uuid: 'a8e5d37a-696c-4c54-adb5-b3f28d64c7de' };
const sentryActor = { id: 'sentry', name: 'Sentry', type: 'application' };

function issuePayload(action: string) {
  return {
    action,
    actor: action === 'created' ? sentryActor : { type: 'user', id: 1, name: 'colleen' },
    data: {
      issue: {
        id: '1170820242',
        shortId: 'FRONT-END-9',
        title: 'ReferenceError: blooopy is not defined',
        culprit: '?(runner)',
        level: 'error',
        status: action === 'resolved' ? 'resolved' : 'unresolved',
        platform: 'javascript',
        type: 'error',
        project: { id: '1', name: 'front-end', platform: '', slug: 'front-end' },
        metadata: { filename: '/runner', type: 'ReferenceError', value: 'blooopy is not defined' },
        count: '1',
        userCount: 1,
        firstSeen: '2019-08-19T20:58:37.391000Z',
        lastSeen: '2019-08-19T20:58:37.391000Z',
        web_url: 'https://sentry.io/organizations/test-org/issues/1170820242/',
      },
    },
    installation,
  };
}

const sentryEvent = {
  event_id: 'e4874d664c3540c1a32eab185f12c5ab',
  title: 'ReferenceError: heck is not defined',
  culprit: '?(<anonymous>)',
  level: 'error',
  datetime: '2019-08-19T21:06:17.677000Z',
  web_url: 'https://sentry.io/organizations/test-org/issues/1117540176/events/e4874d664c3540c1a32eab185f12c5ab/',
};

const metricAlert = {
  action: 'critical',
  actor: sentryActor,
  data: {
    description_text: '1000 events in the last 10 minutes\nFilter: level:error',
    description_title: 'Critical: Too many errors',
    metric_alert: { alert_rule: { aggregate: 'count()', id: '7', name: 'Too many errors' }, id: '4', status: 2, title: 'Sacred Marmot' },
    web_url: 'https://sentry.io/organizations/baz/alerts/1/',
  },
  installation,
};

/** Real Sentry deliveries: the resource in Sentry-Hook-Resource, the action in the body. */
const SENTRY_CASES: Array<{ name: string; headers: ErrorTrackerHeaders; payload: unknown }> = [
  { name: 'issue created', headers: { resource: 'issue' }, payload: issuePayload('created') },
  {
    name: 'event_alert triggered',
    headers: { resource: 'event_alert' },
    payload: { action: 'triggered', actor: sentryActor, data: { event: sentryEvent, triggered_rule: 'Important rule' }, installation },
  },
  { name: 'metric_alert critical', headers: { resource: 'metric_alert' }, payload: metricAlert },
  { name: 'error created', headers: { resource: 'error' }, payload: { action: 'created', actor: sentryActor, data: { error: sentryEvent }, installation } },
  // Fluxer's format: the event in X-Sentry-Event.
  { name: 'X-Sentry-Event issue.created', headers: { fluxerEvent: 'issue.created' }, payload: issuePayload('created') },
  { name: 'X-Sentry-Event issue.resolved', headers: { fluxerEvent: 'issue.resolved' }, payload: issuePayload('resolved') },
];

function sentryHeaders(headers: ErrorTrackerHeaders): Record<string, string> {
  return {
    ...(headers.resource ? { 'Sentry-Hook-Resource': headers.resource } : {}),
    ...(headers.fluxerEvent ? { 'X-Sentry-Event': headers.fluxerEvent } : {}),
  };
}

describe('error tracker (Sentry, reference §3.4, decisions §9)', () => {
  it.each(SENTRY_CASES)('$name: 204, stored as the transformer renders it', async ({ headers, payload }) => {
    const hook = await createWebhookFixture(stack.gateway.pool);
    const answer = await post(executeUrl(stack.gateway, hook, '/errortracker'), payload, sentryHeaders(headers));
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
    await post(executeUrl(stack.gateway, hook, '/sentry'), issuePayload('created'), { 'Sentry-Hook-Resource': 'issue' });
    const [embed] = onlyMessage(await messagesOf(stack.gateway.pool, hook.webhookId)).embeds;
    expect(embed.title).toContain('ReferenceError: blooopy is not defined');
    expect(embed.url).toBe('https://sentry.io/organizations/test-org/issues/1170820242/');
    expect(embed.color).toBe(0xeb4841);
    expect(JSON.stringify(embed.fields)).toContain('FRONT-END-9');
  });

  it('answers 204 and posts nothing for {}, a missing header and an unknown resource; 404 for a bad token', async () => {
    const hook = await createWebhookFixture(stack.gateway.pool);
    expect((await post(executeUrl(stack.gateway, hook, '/sentry'), {}, { 'X-Sentry-Event': 'issue.created' })).status).toBe(204);
    expect((await post(executeUrl(stack.gateway, hook, '/sentry'), issuePayload('created'))).status).toBe(204);
    expect((await post(executeUrl(stack.gateway, hook, '/sentry'), { action: 'x', data: {} }, { 'Sentry-Hook-Resource': 'seer' })).status).toBe(204);
    const badToken = await post(executeUrl(stack.gateway, { ...hook, token: 'z'.repeat(64) }, '/sentry'), issuePayload('created'));
    expect(badToken.status).toBe(404);
    const queue = deliveriesQueue(stack.gateway.redis, environment.redisPrefix);
    try {
      expect(await deliveriesSettled(queue)).toBe(0);
    } finally {
      await queue.close();
    }
    expect(await webhookMessages(stack.gateway.pool, hook.webhookId)).toEqual([]);
  });
});
