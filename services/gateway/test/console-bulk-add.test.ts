import { beforeAll, describe, expect, it } from 'vitest';
import { ACL } from '@switchboard/contracts';
import { createGuildFixture } from '@switchboard/testkit/guilds';
import { holdRowLock } from '@switchboard/testkit/row-lock';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { createAdmin, finishedOperationAnswer, fixtureIds, type AdminFixture } from './admin-helpers.ts';
import { finishedOperationPage, signInToConsole, textOf } from './console-helpers.ts';
import { useOperationGateways } from './operation-gateways.ts';

const environment = useTestEnvironment();
const { gateway, impatient } = useOperationGateways(environment, ['bulk-worker']);

let admin: AdminFixture;
beforeAll(async () => {
  admin = await createAdmin(gateway.pool, [ACL.authenticate, ACL.bulkAddGuildMembers]);
});

async function operationRows(adminId: string): Promise<number> {
  const { rows } = await gateway.pool.query('SELECT 1 FROM bulk_operations WHERE requested_by = $1', [adminId]);
  return rows.length;
}

describe('console bulk add', () => {
  it('shows the screen and answers its routes only with bulk:add:guild_members', async () => {
    // Fluxer's panel checks a misspelled ACL here, so only `*` admins see its form.
    const other = await createAdmin(gateway.pool, [ACL.authenticate, ACL.assetPurge]);
    const without = await signInToConsole(gateway.url, other.key);
    expect((await without.get('/')).body).not.toContain('/console/bulk/add-members');
    expect((await without.get('/bulk/add-members')).status).toBe(403);
    const form = { guild_id: '1', user_ids: '2', reason: 'r', confirm: 'add' };
    expect((await without.post('/bulk/add-members', form)).status).toBe(403);
    expect((await without.get('/bulk/operations/123')).status).toBe(403);
    expect((await without.get('/bulk/operations/123/status')).status).toBe(403);
    expect(await operationRows(other.adminId)).toBe(0);

    const client = await signInToConsole(gateway.url, admin.key);
    expect((await client.get('/')).body).toContain('href="/console/bulk/add-members"');
    expect((await client.get('/bulk/add-members')).status).toBe(200);
  });

  it('names the guild and users and asks for a reason before anything is enqueued', async () => {
    const adder = await createAdmin(gateway.pool, [ACL.authenticate, ACL.bulkAddGuildMembers]);
    const client = await signInToConsole(gateway.url, adder.key);
    const [a, b] = [fixtureIds.next(), fixtureIds.next()];
    const review = await client.post('/bulk/add-members', { guild_id: '42', user_ids: `${a}, ${b}\n${b}` });
    expect(review.status).toBe(200);
    expect(review.body).toContain('Add these 2 users to guild 42?');
    expect(review.body).toContain(`<li><code>${a}</code></li>`);
    expect(review.body).toContain(`<li><code>${b}</code></li>`);
    const junk = await client.post('/bulk/add-members', { guild_id: '42', user_ids: `${a}\nnope` });
    expect(junk.status).toBe(400);
    expect(junk.body).toContain('Not a user id: nope.');
    expect((await client.post('/bulk/add-members', { user_ids: a })).status).toBe(400);
    const noReason = await client.post('/bulk/add-members', { guild_id: '42', user_ids: a, confirm: 'add' });
    expect(noReason.status).toBe(400);
    expect(noReason.body).toContain('Give a reason.');
    expect(await operationRows(adder.adminId)).toBe(0);
  });

  it('shows the outcome per user as the API reports it, with the reason in the audit log', async () => {
    const { guildId, userIds } = await createGuildFixture(gateway.pool, 1);
    const [user] = userIds as [string];
    const missing = fixtureIds.next();
    const client = await signInToConsole(gateway.url, admin.key);
    const done = await client.post('/bulk/add-members', {
      guild_id: guildId,
      user_ids: `${user}\n${missing}`,
      reason: 'onboarding',
      confirm: 'add',
    });
    const text = textOf(await finishedOperationPage(gateway.url, client, admin.key, done));
    expect(text).toContain('1 added or already members, 1 failed');
    expect(text).toContain(`${user} Added (or already a member)`);
    expect(text).toContain(`${missing} Failed: Unknown user`);
    const audit = await gateway.pool.query(
      `SELECT action, audit_log_reason AS reason FROM audit_logs WHERE admin_user_id = $1 AND target_id = $2`,
      [admin.adminId, guildId],
    );
    expect(audit.rows).toEqual([{ action: 'bulk_add_guild_members', reason: 'onboarding' }]);

    const unknownGuild = await client.post('/bulk/add-members', {
      guild_id: fixtureIds.next(),
      user_ids: user,
      reason: 'wrong guild',
      confirm: 'add',
    });
    expect(textOf(await finishedOperationPage(gateway.url, client, admin.key, unknownGuild))).toContain(
      `${user} Failed: Unknown guild`,
    );
  });

  it('follows an operation that outlives the request, then shows its outcome', async () => {
    const { guildId, userIds } = await createGuildFixture(gateway.pool, 2);
    const client = await signInToConsole(impatient.url, admin.key);
    // Members cannot be added while the guild's row is locked: the operation stays live.
    const guild = await holdRowLock(gateway.pool, 'SELECT 1 FROM guilds WHERE id = $1 FOR UPDATE', [guildId]);
    let path = '';
    try {
      const accepted = await client.post('/bulk/add-members', {
        guild_id: guildId,
        user_ids: userIds.join(','),
        reason: 'migration',
        confirm: 'add',
      });
      expect(accepted.status).toBe(303);
      const location = accepted.headers.get('location')!;
      expect(location).toMatch(/^\/console\/bulk\/operations\/\d+$/);
      path = location.slice('/console'.length);
      const running = await client.get(path);
      expect(running.body).toMatch(/data-operation-status-url="[^"]+\/status">(Queued|Running)</);
      expect(running.body).toContain(`<a href="${location}">Refresh</a>`);
      expect((await client.get(`${path}/status`)).body).toMatchObject({
        status: expect.stringMatching(/^(queued|running)$/),
      });
    } finally {
      await guild.release();
    }
    await finishedOperationAnswer(gateway.url, `/v1/admin${path}`, admin.key);
    const finished = await client.get(path);
    const text = textOf(finished.body as string);
    expect(text).toContain('Status: Finished');
    for (const user of userIds) expect(text).toContain(`${user} Added (or already a member)`);
    expect(finished.body).not.toContain('data-operation-status-url');
  });
});
