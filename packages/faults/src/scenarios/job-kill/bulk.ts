import { killMidOperation } from '@switchboard/testkit/operations';
import { seedBulkAddGuild } from '../bulk-add-guild.ts';
import { adminRequest, auditEntries, check, type JobKillCase } from './case.ts';

const USERS = 20;

/** A bulk add of 20 users, killed while it waits for the guild row inside its transaction. */
export const bulkCase: JobKillCase = {
  name: 'bulk',
  worker: 'bulk-worker',
  async run(context) {
    const { guildId, userIds } = await seedBulkAddGuild(context.pool, context.ids, {
      name: 'fault bulk',
      users: USERS,
    });
    const { done } = await killMidOperation({
      pool: context.pool,
      lock: { sql: 'SELECT 1 FROM guilds WHERE id = $1 FOR UPDATE', params: [guildId] },
      start: () =>
        adminRequest(context, 'POST', '/v1/admin/bulk/add-guild-members', { guild_id: guildId, user_ids: userIds }),
      status: (accepted) => adminRequest(context, 'GET', `/v1/admin/bulk/operations/${accepted.body.operation_id}`),
      ...context.worker,
    });
    const { rows } = await context.pool.query<{ members: number; counted: number }>(
      'SELECT (SELECT count(*)::int FROM members WHERE guild_id = $1) AS members, member_count AS counted FROM guilds WHERE id = $1',
      [guildId],
    );
    const { members, counted } = rows[0]!;
    const audit = await auditEntries(context.pool, guildId);
    const added = (done.body.successful as string[]).length;
    return {
      figures: `completed, ${added}/${USERS} added, ${members} members (count ${counted}), audit ${audit}`,
      problems: [
        ...check(
          JSON.stringify(done.body.successful) === JSON.stringify(userIds) && done.body.failed.length === 0,
          'result differs from the users asked for',
        ),
        ...check(
          members === USERS + 1 && counted === USERS + 1,
          `${members} members, member_count ${counted}, expected ${USERS + 1}`,
        ),
        ...check(audit === 1, `${audit} audit entries, expected 1`),
      ],
    };
  },
};
