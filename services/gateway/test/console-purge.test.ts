import { beforeAll, describe, expect, it } from 'vitest';
import { ACL } from '@switchboard/contracts';
import { createPurgeGuildFixture } from '@switchboard/testkit/guilds';
import { holdRowLock } from '@switchboard/testkit/row-lock';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { createAdmin, finishedOperationAnswer, fixtureIds, type AdminFixture } from './admin-helpers.ts';
import { finishedOperationPage, signInToConsole, textOf, type ConsoleClient } from './console-helpers.ts';
import { useOperationGateways } from './operation-gateways.ts';

const environment = useTestEnvironment();
const { gateway, impatient } = useOperationGateways(environment, ['asset-purge-worker']);

let admin: AdminFixture;
beforeAll(async () => {
  admin = await createAdmin(gateway.pool, [ACL.authenticate, ACL.assetPurge]);
});

async function purgeRows(adminId: string): Promise<number> {
  const { rows } = await gateway.pool.query('SELECT 1 FROM asset_purges WHERE requested_by = $1', [adminId]);
  return rows.length;
}

describe('console asset purge', () => {
  it('shows the screen and answers its routes only with asset:purge', async () => {
    const other = await createAdmin(gateway.pool, [ACL.authenticate, ACL.auditLogView]);
    const without = await signInToConsole(gateway.url, other.key);
    expect((await without.get('/')).body).not.toContain('/console/assets/purge');
    expect((await without.get('/assets/purge')).status).toBe(403);
    expect((await without.post('/assets/purge', { ids: '1', reason: 'r', confirm: 'purge' })).status).toBe(403);
    expect((await without.get('/assets/purges/123')).status).toBe(403);
    expect((await without.get('/assets/purges/123/status')).status).toBe(403);
    expect(await purgeRows(other.adminId)).toBe(0);

    const client = await signInToConsole(gateway.url, admin.key);
    expect((await client.get('/')).body).toContain('href="/console/assets/purge"');
    const form = await client.get('/assets/purge');
    expect(form.status).toBe(200);
    expect(form.body).toContain('name="ids"');
    expect(form.body).toContain('name="guild_id"');
  });

  it('names what goes and asks for a reason before anything is enqueued', async () => {
    const purger = await createAdmin(gateway.pool, [ACL.authenticate, ACL.assetPurge]);
    const client = await signInToConsole(gateway.url, purger.key);
    const [a, b] = [fixtureIds.next(), fixtureIds.next()];
    const review = await client.post('/assets/purge', { ids: `${a}\n${b}, ${a}` });
    expect(review.status).toBe(200);
    expect(review.body).toContain('Purge these 2 assets?');
    expect(review.body).toContain(`<li><code>${a}</code></li>`);
    expect(review.body).toContain(`<li><code>${b}</code></li>`);
    expect(review.body).toContain('name="confirm" value="purge"');
    const guild = await client.post('/assets/purge', { guild_id: '42' });
    expect(guild.body).toContain('Purge every asset of this guild?');
    expect(guild.body).toContain('<code>42</code>');
    // Both, neither, and a confirmation without a reason are refused here.
    expect((await client.post('/assets/purge', { ids: a, guild_id: '42' })).status).toBe(400);
    expect((await client.post('/assets/purge', {})).status).toBe(400);
    const noReason = await client.post('/assets/purge', { ids: a, confirm: 'purge', reason: ' ' });
    expect(noReason.status).toBe(400);
    expect(noReason.body).toContain('Give a reason.');
    expect(await purgeRows(purger.adminId)).toBe(0);
  });

  it("shows each item's outcome as the API reports it, with the reason in the audit log", async () => {
    const { emojiA, stickerId } = await seed();
    const unknown = fixtureIds.next();
    const client = await signInToConsole(gateway.url, admin.key);
    const done = await client.post('/assets/purge', {
      ids: [emojiA, stickerId, unknown, 'abc'].join('\n'),
      reason: 'takedown 17',
      confirm: 'purge',
    });
    const text = textOf(await finishedOperationPage(gateway.url, client, admin.key, done));
    expect(text).toContain('2 purged, 1 not found, 1 failed');
    expect(text).toContain(`${emojiA} emoji`);
    expect(text).toMatch(new RegExp(`${emojiA} emoji \\d+ Purged`));
    expect(text).toMatch(new RegExp(`${stickerId} sticker \\d+ Purged`));
    expect(text).toContain(`${unknown} `);
    expect(text).toMatch(new RegExp(`${unknown} \\S+ — Not found`));
    expect(text).toContain('abc — — Failed: Invalid numeric ID');
    const { rows } = await gateway.pool.query<{ action: string; reason: string | null }>(
      `SELECT action, audit_log_reason AS reason FROM audit_logs WHERE admin_user_id = $1 AND target_id = ANY($2)`,
      [admin.adminId, [emojiA, stickerId]],
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((row) => row.reason === 'takedown 17')).toBe(true);
  });

  it('follows a purge that outlives the request, then shows its outcome', async () => {
    const { guildId } = await seed();
    const client: ConsoleClient = await signInToConsole(impatient.url, admin.key);
    // The purge clears the guild's icon: it cannot finish while the row is locked.
    const guild = await holdRowLock(gateway.pool, 'SELECT 1 FROM guilds WHERE id = $1 FOR UPDATE', [guildId]);
    let location: string;
    try {
      const accepted = await client.post('/assets/purge', {
        guild_id: guildId,
        reason: 'spam guild',
        confirm: 'purge',
      });
      expect(accepted.status).toBe(303);
      location = accepted.headers.get('location')!;
      expect(location).toMatch(/^\/console\/assets\/purges\/\d+$/);
      const path = location.slice('/console'.length);
      const running = await client.get(path);
      expect(running.status).toBe(200);
      expect(running.body).toMatch(
        /Status: <strong role="status" aria-live="polite" data-operation-status-url="[^"]+\/status">(Queued|Running)</,
      );
      expect(running.body).toContain(`<a href="${location}">Refresh</a>`);
      const status = await client.get(`${path}/status`);
      expect(status.status).toBe(200);
      expect(status.body).toMatchObject({ status: expect.stringMatching(/^(queued|running)$/) });
    } finally {
      await guild.release();
    }
    const purgeId = location.split('/').pop()!;
    await finishedOperationAnswer(gateway.url, `/v1/admin/assets/purges/${purgeId}`, admin.key);
    const finished = await client.get(location.slice('/console'.length));
    const text = textOf(finished.body as string);
    expect(text).toContain('Status: Finished');
    expect(text).toContain('5 purged, 0 not found, 0 failed');
    expect(finished.body).not.toContain('data-operation-status-url');
    const { rows } = await gateway.pool.query<{ reason: string | null }>(
      `SELECT DISTINCT audit_log_reason AS reason FROM audit_logs WHERE admin_user_id = $1 AND target_id = $2`,
      [admin.adminId, guildId],
    );
    expect(rows).toEqual([{ reason: 'spam guild' }]);
  });
});

const seed = () => createPurgeGuildFixture(gateway.pool, gateway.storage);
