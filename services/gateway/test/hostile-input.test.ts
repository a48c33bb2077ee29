import { describe, expect, it } from 'vitest';
import { ACL } from '@switchboard/contracts';
import { call, createWebhookFixture, useTestEnvironment } from '@switchboard/testkit';
import { createAdmin } from './admin-helpers.ts';
import { useGateway } from './helpers.ts';
import { executeUrl } from './webhook-execute-helpers.ts';

const environment = useTestEnvironment();
const gateway = useGateway(environment, { RATE_LIMITS_ENABLED: 'false' });

/** `{"a":{"a":…{"a":"x"}…}}`, `depth` objects deep, as raw JSON text. */
function nestedObjects(depth: number): string {
  return `${'{"a":'.repeat(depth)}"x"${'}'.repeat(depth)}`;
}

const TOO_DEEP = { code: 'INVALID_FORM_BODY', errors: [{ path: 'root', code: 'INVALID_FORMAT' }] };

describe('deeply nested JSON (decisions §1: bad input is a 400, never a 500)', () => {
  it('is refused with 400 by an admin route, at any depth past the limit', async () => {
    const admin = await createAdmin(gateway.pool, [ACL.authenticate, ACL.banEmailCheck]);
    for (const depth of [65, 10_000, 100_000]) {
      const answer = await fetch(`${gateway.url}/v1/admin/bans/email/check`, {
        method: 'POST',
        headers: { authorization: `Admin ${admin.key}`, 'content-type': 'application/json' },
        body: nestedObjects(depth),
      });
      expect(answer.status).toBe(400);
      expect(await answer.json()).toMatchObject(TOO_DEEP);
    }
  });

  it('is refused with 400 by webhook execution, as JSON and inside a form payload', async () => {
    const hook = await createWebhookFixture(gateway.pool);
    const asJson = await fetch(executeUrl(gateway, hook), { method: 'POST', headers: { 'content-type': 'application/json' }, body: nestedObjects(100_000) });
    expect(asJson.status).toBe(400);
    expect(await asJson.json()).toMatchObject(TOO_DEEP);
    const asForm = await fetch(executeUrl(gateway, hook, '/slack'), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ payload: nestedObjects(5_000) }).toString(),
    });
    expect(asForm.status).toBe(400);
    expect(await asForm.json()).toMatchObject(TOO_DEEP);
  });

  it('still takes real payloads with ordinary nesting', async () => {
    const hook = await createWebhookFixture(gateway.pool);
    const embeds = [{ title: 't', fields: [{ name: 'n', value: 'v' }], footer: { text: 'f' } }];
    expect((await call('POST', executeUrl(gateway, hook), { body: { content: 'nested enough', embeds } })).status).toBe(204);
  });
});
