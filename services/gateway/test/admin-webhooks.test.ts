import { describe, expect, it } from 'vitest';
import { ACL } from '@switchboard/contracts';
import { createWebhookFixture } from '@switchboard/testkit/webhooks';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { adminCall, createAdmin } from './admin-helpers.ts';
import { useGateway } from './helpers.ts';

const environment = useTestEnvironment();
const gateway = useGateway(environment, { RATE_LIMITS_ENABLED: 'false' });

describe('admin webhook routes (docs/decisions.md#admin-webhook-routes)', () => {
  it("lists a guild's and a channel's webhooks and reads one, never showing token or secret", async () => {
    const viewer = await createAdmin(gateway.pool, [ACL.authenticate, ACL.webhookView]);
    const hook = await createWebhookFixture(gateway.pool, { secret: 'shh', name: 'Signed Hook' });
    const expected = {
      id: hook.webhookId,
      type: 1,
      guild_id: hook.guildId,
      channel_id: hook.channelId,
      name: 'Signed Hook',
      avatar: null,
      creator_id: hook.ownerId,
      signed: true,
      created_at: expect.any(String),
    };
    for (const body of [{ guild_id: hook.guildId }, { channel_id: hook.channelId }]) {
      const listed = await adminCall(gateway.url, {
        method: 'POST',
        path: '/v1/admin/webhooks/list',
        key: viewer.key,
        body,
      });
      expect([listed.status, listed.body]).toEqual([200, { webhooks: [expected] }]);
    }
    const one = await adminCall(gateway.url, {
      method: 'GET',
      path: `/v1/admin/webhooks/${hook.webhookId}`,
      key: viewer.key,
    });
    expect([one.status, one.body]).toEqual([200, expected]);
    expect(JSON.stringify(one.body)).not.toContain(hook.token);

    const neither = await adminCall(gateway.url, {
      method: 'POST',
      path: '/v1/admin/webhooks/list',
      key: viewer.key,
      body: {},
    });
    expect(neither.status).toBe(400);
    const unknown = await adminCall(gateway.url, { method: 'GET', path: '/v1/admin/webhooks/1', key: viewer.key });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'UNKNOWN_WEBHOOK']);
  });

  it('deletes a webhook with an audit entry; its token stops working at once', async () => {
    const deleter = await createAdmin(gateway.pool, [ACL.authenticate, ACL.webhookDelete]);
    const hook = await createWebhookFixture(gateway.pool);
    const removed = await adminCall(gateway.url, {
      method: 'DELETE',
      path: `/v1/admin/webhooks/${hook.webhookId}`,
      key: deleter.key,
      headers: { 'X-Audit-Log-Reason': 'spam' },
    });
    expect(removed.status).toBe(204);
    const execute = await fetch(`${gateway.url}/v1/webhooks/${hook.webhookId}/${hook.token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ content: 'hello' }),
    });
    expect(execute.status).toBe(404);
    const { rows } = await gateway.pool.query(
      `SELECT action, target_id, audit_log_reason AS reason, metadata->>'guild_id' AS guild_id
         FROM audit_logs WHERE target_type = 'webhook' AND admin_user_id = $1`,
      [deleter.adminId],
    );
    expect(rows).toEqual([
      { action: 'delete_webhook', target_id: hook.webhookId, reason: 'spam', guild_id: hook.guildId },
    ]);
    const again = await adminCall(gateway.url, {
      method: 'DELETE',
      path: `/v1/admin/webhooks/${hook.webhookId}`,
      key: deleter.key,
    });
    expect([again.status, again.body.code]).toEqual([404, 'UNKNOWN_WEBHOOK']);
  });
});
