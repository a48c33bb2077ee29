import { storageKeys } from '@switchboard/contracts';
import { insertEmojis, insertGuild, insertStickers, insertUsers, withTransaction } from '@switchboard/db';
import { killMidOperation } from '@switchboard/testkit';
import { adminRequest, auditEntries, check, type CaseContext, type JobKillCase } from './case.ts';

const PNG = { contentType: 'image/png', size: 4 };

/** A guild with two emojis and a sticker, rows and objects. */
async function seed({ pool, storage, ids }: CaseContext) {
  const [ownerId, guildId, emojiA, emojiB, stickerId] = [ids.next(), ids.next(), ids.next(), ids.next(), ids.next()];
  await withTransaction(pool, async (db) => {
    await insertUsers(db, [{ id: ownerId, username: `o${ownerId.slice(-8)}` }]);
    await insertGuild(db, { id: guildId, name: 'fault purge', ownerId });
    await insertEmojis(
      db,
      [emojiA, emojiB].map((id, i) => ({
        id,
        guildId,
        name: `emoji_${i}`,
        creatorId: ownerId,
        storageKey: storageKeys.emoji(id),
        ...PNG,
      })),
    );
    await insertStickers(db, [
      {
        id: stickerId,
        guildId,
        name: 'sticker',
        creatorId: ownerId,
        storageKey: storageKeys.sticker(stickerId),
        ...PNG,
      },
    ]);
  });
  const keys = [storageKeys.emoji(emojiA), storageKeys.emoji(emojiB), storageKeys.sticker(stickerId)];
  for (const key of keys) await storage.upload(key, Buffer.from('png!'), { contentType: 'image/png' });
  return { guildId, emojiA, keys };
}

/** A guild purge, killed while it waits for an emoji row in its first phase. */
export const purgeCase: JobKillCase = {
  name: 'purge',
  worker: 'asset-purge-worker',
  async run(context) {
    const { guildId, emojiA, keys } = await seed(context);
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
