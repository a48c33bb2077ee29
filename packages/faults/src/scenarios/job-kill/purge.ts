import { createPurgeGuildFixture } from '@switchboard/testkit/guilds';
import { killMidOperation } from '@switchboard/testkit/operations';
import { adminRequest, auditEntries, check, type JobKillCase } from './case.ts';

/** A guild purge, killed while it waits for an emoji row in its first phase. */
export const purgeCase: JobKillCase = {
  name: 'purge',
  worker: 'asset-purge-worker',
  async run(context) {
    const { guildId, emojiA, keys } = await createPurgeGuildFixture(context.pool, context.storage);
    const { done } = await killMidOperation({
      pool: context.pool,
      lock: { sql: 'SELECT 1 FROM emojis WHERE id = $1 FOR UPDATE', params: [emojiA] },
      start: () => adminRequest(context, 'POST', '/v1/admin/assets/purge', { guild_id: guildId }),
      status: (accepted) => adminRequest(context, 'GET', `/v1/admin/assets/purges/${accepted.body.purge_id}`),
      ...context.worker,
    });
    const left = (await Promise.all(keys.map((key) => context.storage.headObject(key)))).filter(
      (head) => head !== null,
    ).length;
    const { rows } = await context.pool.query<{ n: number }>(
      'SELECT (SELECT count(*) FROM emojis WHERE guild_id = $1) + (SELECT count(*) FROM stickers WHERE guild_id = $1) AS n',
      [guildId],
    );
    const audit = await auditEntries(context.pool, guildId);
    return {
      figures: `completed, ${done.body.deleted_objects}/${keys.length} objects deleted, audit ${audit}`,
      problems: [
        ...check(
          done.body.deleted_objects === keys.length &&
            done.body.processed.length === keys.length &&
            done.body.errors.length === 0,
          'result differs from the seeded assets',
        ),
        ...check(left === 0 && Number(rows[0]!.n) === 0, `${left} objects and ${rows[0]!.n} rows left`),
        ...check(audit === 1, `${audit} audit entries, expected 1`),
      ],
    };
  },
};
