import { UnrecoverableError } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { webhookBodyKey, webhookDeliveryPayloadSchema, type WebhookDeliveryInput } from '@switchboard/contracts';
import {
  channelEvents,
  createWebhookFixture,
  webhookMessages,
  type WebhookFixture,
} from '@switchboard/testkit/webhooks';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { ids, jobContext, useDeliveryStores } from './support.ts';

const environment = useTestEnvironment();
const stores = useDeliveryStores(environment);

/** The format-specific fields, per format (Omit over the union, member by member). */
type Fields = WebhookDeliveryInput extends infer Input
  ? Input extends unknown
    ? Omit<Input, 'webhookId' | 'messageId' | 'body'>
    : never
  : never;

function delivery(hook: WebhookFixture, fields: Fields, body: WebhookDeliveryInput['body']) {
  return webhookDeliveryPayloadSchema.parse({ webhookId: hook.webhookId, messageId: ids.next(), ...fields, body });
}

const inline = (value: unknown) => ({ kind: 'inline' as const, value: value as never });

describe('deliveryHandler', () => {
  it('is idempotent by the message id: run twice, one message and one MESSAGE_CREATE', async () => {
    const hook = await createWebhookFixture(stores.pool);
    const payload = delivery(hook, { format: 'plain' }, inline({ content: 'once', username: 'Override' }));
    const first = await stores.handler()(payload, jobContext());
    const second = await stores.handler()(payload, jobContext());
    expect(first).toEqual({ outcome: 'stored', messageId: payload.messageId });
    expect(second).toEqual(first);
    expect(await webhookMessages(stores.pool, hook.webhookId)).toHaveLength(1);
    const events = await channelEvents(stores.redis, environment.eventsStreamKey, hook.channelId);
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]!.data)).toMatchObject({
      id: payload.messageId,
      content: 'once',
      author: { username: 'Override' },
    });
  });

  it('reads a claim-checked body from S3, deletes it once stored, and finishes a retry without it', async () => {
    const hook = await createWebhookFixture(stores.pool);
    const messageId = ids.next();
    const key = webhookBodyKey(hook.webhookId, messageId);
    const json = JSON.stringify({ text: 'from s3' });
    await stores.storage.upload(key, json, { contentType: 'application/json' });
    const payload = webhookDeliveryPayloadSchema.parse({
      webhookId: hook.webhookId,
      messageId,
      format: 'chatapp',
      body: { kind: 'stored', key, bytes: json.length },
    });
    expect(await stores.handler()(payload, jobContext())).toEqual({ outcome: 'stored', messageId });
    expect(await stores.storage.headObject(key)).toBeNull();
    // A crash after the delete and before the job completed: the retry has no body.
    expect(await stores.handler()(payload, jobContext())).toEqual({ outcome: 'stored', messageId });
    expect(await webhookMessages(stores.pool, hook.webhookId)).toHaveLength(1);
    expect(await channelEvents(stores.redis, environment.eventsStreamKey, hook.channelId)).toHaveLength(1);
  });

  it('completes a delivery whose body is gone with nothing stored, with a dedupe key or without, posting nothing', async () => {
    const hook = await createWebhookFixture(stores.pool);
    // An ignored event whose worker died after deleting the body: the retry finds no body.
    const ignored = delivery(
      hook,
      { format: 'codehost', event: 'workflow_run', deliveryId: 'ignored-once' },
      { kind: 'stored', key: 'webhook-bodies/missing.json', bytes: 2 },
    );
    expect(await stores.handler()(ignored, jobContext())).toEqual({ outcome: 'body_gone' });
    const plain = delivery(
      hook,
      { format: 'chatapp' },
      { kind: 'stored', key: 'webhook-bodies/missing.json', bytes: 2 },
    );
    expect(await stores.handler()(plain, jobContext())).toEqual({ outcome: 'body_gone' });
    expect(await webhookMessages(stores.pool, hook.webhookId)).toHaveLength(0);
    expect(await channelEvents(stores.redis, environment.eventsStreamKey, hook.channelId)).toHaveLength(0);
  });

  it('completes a duplicate whose attempt dropped it and its body, then crashed, as that duplicate', async () => {
    const hook = await createWebhookFixture(stores.pool);
    const posted = delivery(hook, { format: 'chatapp', deliveryId: 'redelivered' }, inline({ text: 'once' }));
    expect(await stores.handler()(posted, jobContext())).toEqual({ outcome: 'stored', messageId: posted.messageId });
    const retried = delivery(
      hook,
      { format: 'chatapp', deliveryId: 'redelivered' },
      { kind: 'stored', key: 'webhook-bodies/discarded.json', bytes: 2 },
    );
    expect(await stores.handler()(retried, jobContext())).toEqual({
      outcome: 'duplicate',
      duplicateOf: posted.messageId,
    });
    expect(await webhookMessages(stores.pool, hook.webhookId)).toHaveLength(1);
  });

  it('fails for good (not retried) when nothing can be delivered', async () => {
    const hook = await createWebhookFixture(stores.pool);
    const empty = delivery(hook, { format: 'plain' }, inline({ content: '   ' }));
    await expect(stores.handler()(empty, jobContext())).rejects.toBeInstanceOf(UnrecoverableError);
    const tooLong = delivery(hook, { format: 'plain' }, inline({ content: 'x'.repeat(2001) }));
    await expect(stores.handler()(tooLong, jobContext())).rejects.toBeInstanceOf(UnrecoverableError);
    expect(await webhookMessages(stores.pool, hook.webhookId)).toHaveLength(0);
  });

  it('completes without a message for events that post nothing, and for a deleted webhook', async () => {
    const hook = await createWebhookFixture(stores.pool);
    const ignored = delivery(hook, { format: 'codehost', event: 'workflow_run' }, inline({ action: 'completed' }));
    expect(await stores.handler()(ignored, jobContext())).toMatchObject({ outcome: 'ignored' });
    const messageId = ids.next();
    const key = webhookBodyKey(hook.webhookId, messageId);
    await stores.storage.upload(key, '{"text":"late"}', { contentType: 'application/json' });
    await stores.pool.query('DELETE FROM webhooks WHERE id = $1', [hook.webhookId]);
    const late = webhookDeliveryPayloadSchema.parse({
      webhookId: hook.webhookId,
      messageId,
      format: 'chatapp',
      body: { kind: 'stored', key, bytes: 15 },
    });
    expect(await stores.handler()(late, jobContext())).toEqual({ outcome: 'webhook_gone' });
    expect(await stores.storage.headObject(key)).toBeNull();
    expect(await webhookMessages(stores.pool, hook.webhookId)).toHaveLength(0);
  });

  it('stores embeds as rich with colour 0 when unset, and cuts third-party output to the limits', async () => {
    const hook = await createWebhookFixture(stores.pool);
    const payload = delivery(
      hook,
      { format: 'chatapp' },
      inline({ text: 'z'.repeat(4500), attachments: [{ title: 'plain' }] }),
    );
    await stores.handler()(payload, jobContext());
    const { rows } = await stores.pool.query('SELECT content, embeds FROM messages WHERE id = $1', [payload.messageId]);
    expect(rows[0].content.length).toBeLessThanOrEqual(2000);
    expect(rows[0].embeds).toEqual([{ type: 'rich', title: 'plain', color: 0 }]);
  });
});
