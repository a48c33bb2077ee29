import { insertGuild, insertMembers, insertUsers, withTransaction } from '@switchboard/db';
import { killMidOperation } from '@switchboard/testkit/operations';
import { unzip } from '@switchboard/testkit/unzip';
import type { Answer } from '@switchboard/testkit/http';
import { adminRequest, auditEntries, check, type CaseContext, type JobKillCase } from './case.ts';

const MESSAGES = 500;

/** A guild: owner and two members, one text channel with 500 messages. */
async function seed({ pool, ids }: CaseContext) {
  const [ownerId, userA, userB, guildId, channelId] = [ids.next(), ids.next(), ids.next(), ids.next(), ids.next()];
  await withTransaction(pool, async (db) => {
    await insertUsers(
      db,
      [ownerId, userA, userB].map((id) => ({ id, username: `u${id.slice(-8)}` })),
    );
    await insertGuild(db, { id: guildId, name: 'fault archive', ownerId });
    await insertMembers(db, guildId, [{ userId: ownerId }, { userId: userA }, { userId: userB }]);
    await db.query(`INSERT INTO channels (id, guild_id, type, name, position) VALUES ($1, $2, 0, 'general', 0)`, [
      channelId,
      guildId,
    ]);
    const messageIds = Array.from({ length: MESSAGES }, () => ids.next());
    await db.query(
      `INSERT INTO messages (id, channel_id, guild_id, author_id, content)
       SELECT id, $2, $3, $4, 'message ' || n FROM unnest($1::bigint[]) WITH ORDINALITY AS m (id, n)`,
      [messageIds, channelId, guildId, userA],
    );
  });
  return { guildId, channelId };
}

/** The archive's own route, shaped as killMidOperation reads a status (`body.status`). */
async function archiveStatus(context: CaseContext, guildId: string, accepted: Answer): Promise<Answer> {
  const answer = await adminRequest(context, 'GET', `/v1/admin/archives/guild/${guildId}/${accepted.body.archive_id}`);
  return { ...answer, body: answer.body.archive ?? {} };
}

async function downloadArchive(context: CaseContext, guildId: string, archiveId: string): Promise<Map<string, Buffer>> {
  const link = await adminRequest(context, 'GET', `/v1/admin/archives/guild/${guildId}/${archiveId}/download`);
  const response = await fetch(link.body.downloadUrl, { signal: AbortSignal.timeout(30_000) });
  return unzip(Buffer.from(await response.arrayBuffer()));
}

/** A guild archive, killed while it waits for the members table as it streams guild.json. */
export const archiveCase: JobKillCase = {
  name: 'archive',
  worker: 'archive-worker',
  workerEnv: { ARCHIVE_PROGRESS_INTERVAL_MS: '100' },
  async run(context) {
    const { guildId, channelId } = await seed(context);
    const { accepted, done } = await killMidOperation({
      pool: context.pool,
      lock: { sql: 'LOCK TABLE members IN ACCESS EXCLUSIVE MODE', params: [] },
      start: () => adminRequest(context, 'POST', '/v1/admin/archives/guild', { guild_id: guildId }),
      status: (first) => archiveStatus(context, guildId, first),
      ...context.worker,
    });
    // The gateway audits the trigger, about the archive row; the worker writes none. Counted
    // before the download, which is audited too.
    const audit = await auditEntries(context.pool, accepted.body.archive_id);
    const files = await downloadArchive(context, guildId, accepted.body.archive_id);
    const json = (path: string) => JSON.parse(files.get(path)?.toString('utf8') ?? 'null');
    const exported = (json(`channels/${channelId}/messages.json`) as unknown[] | null)?.length ?? 0;
    const members = (json('guild.json')?.members as unknown[] | undefined)?.length ?? 0;
    return {
      figures: `completed, ${exported}/${MESSAGES} messages and ${members}/3 members in the ZIP, audit ${audit}`,
      problems: [
        ...check(done.body.failed_at === null, 'the archive failed once before completing'),
        ...check(exported === MESSAGES && members === 3, 'the ZIP differs from the guild'),
        ...check(audit === 1, `${audit} audit entries, expected 1`),
      ],
    };
  },
};
