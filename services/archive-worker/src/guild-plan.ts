import { UnrecoverableError } from 'bullmq';
import type { Pool } from '@switchboard/db';
import type { Storage } from '@switchboard/storage';
import { channelMessagesPage, countChannelMessages, guildMembersPage, readGuildArchiveHead } from './archive-reads.ts';
import { assetEntries, entriesThen, type ArchivePlan } from './plan.ts';
import { jsonArray } from './json-pages.ts';
import { messagePhase, type ProgressWriter } from './progress.ts';
import { textStream } from './text-stream.ts';

/**
 * A guild's archive (layout: docs/decisions.md#fluxer-archive-layout): `guild.json` (the guild, roles, every member,
 * emojis, stickers, channels), `channels/<id>/messages.json` with EVERY message of each text
 * channel, oldest first (Fluxer stops at 1000), and the guild's images under `assets/guild/`.
 * Progress follows the reference's steps, the message phase by messages written.
 */
export async function guildPlan(
  pool: Pool,
  storage: Storage,
  guildId: string,
  progress: ProgressWriter,
): Promise<ArchivePlan> {
  await progress.report(5, 'Collecting guild metadata');
  const head = await readGuildArchiveHead(pool, guildId);
  if (!head) throw new UnrecoverableError(`Guild ${guildId} not found`);
  let channelsDone = 0;
  // Counted while guild.json and the first pages are written; a failed count fails the archive
  // when the first page reports.
  const total = countChannelMessages(
    pool,
    head.textChannels.map((channel) => channel.id),
  );
  total.catch(() => {});
  const onMessages = messagePhase(progress, {
    total,
    from: 25,
    span: 50,
    step: (written) => `Harvested ${channelsDone}/${head.textChannels.length} channels (${written} messages)`,
  });

  const guildJson = async function* () {
    yield `{"guild":${head.guild},"roles":${head.roles},"members":`;
    yield* jsonArray((after, rows) => guildMembersPage(pool, guildId, after, rows), '0');
    yield `,"emojis":${head.emojis},"stickers":${head.stickers},"channels":${head.channels}}`;
    await progress.report(25, 'Harvesting channel messages');
  };
  const channelEntries = head.textChannels.map((channel) => ({
    path: `channels/${channel.id}/messages.json`,
    open: () =>
      textStream(
        (async function* () {
          yield* jsonArray((after, rows) => channelMessagesPage(pool, channel.id, after, rows), '0', onMessages);
          channelsDone += 1;
        })(),
      ),
  }));
  // Looked up while the messages are written.
  const assets = assetEntries(storage, head.assets).then((entries) =>
    entries.map((entry, index) =>
      index === 0
        ? {
            ...entry,
            open: async () => {
              await progress.report(75, 'Downloading guild assets');
              return entry.open();
            },
          }
        : entry,
    ),
  );
  return {
    entries: entriesThen([{ path: 'guild.json', open: () => textStream(guildJson()) }, ...channelEntries], assets),
  };
}
