import { UnrecoverableError } from 'bullmq';
import { storageKeys } from '@switchboard/contracts';
import type { Pool } from '@switchboard/db';
import type { Storage } from '@switchboard/storage';
import { readUserArchiveHead, userChannelMessagesPage } from './archive-reads.ts';
import { assetEntries, entriesThen, type ArchivePlan } from './plan.ts';
import { jsonArray } from './json-pages.ts';
import { messagePhase, type ProgressWriter } from './progress.ts';
import { textStream } from './text-stream.ts';

/**
 * A user's archive (layout: docs/decisions.md#fluxer-archive-layout, for the data this platform
 * holds): `user.json` (the user and their guild memberships), `channels/<id>/messages.json` with
 * every message the user wrote there, oldest first, and `assets/user/avatar.png`.
 */
export async function userPlan(
  pool: Pool,
  storage: Storage,
  userId: string,
  progress: ProgressWriter,
): Promise<ArchivePlan> {
  await progress.report(5, 'Harvesting messages');
  const head = await readUserArchiveHead(pool, userId);
  if (!head) throw new UnrecoverableError(`User ${userId} not found`);
  const onMessages = messagePhase(progress, {
    total: head.channels.reduce((sum, channel) => sum + channel.messages, 0),
    from: 5,
    span: 50,
    step: (written) => `Harvested ${written} messages`,
  });
  const avatar = head.avatarHash
    ? [{ path: 'assets/user/avatar.png', key: storageKeys.userAvatar(userId, head.avatarHash) }]
    : [];
  return {
    entries: entriesThen(
      [
        ...head.channels.map((channel) => ({
          path: `channels/${channel.id}/messages.json`,
          open: () =>
            textStream(
              jsonArray(
                (after, rows) => userChannelMessagesPage(pool, userId, channel.id, after, rows),
                '0',
                onMessages,
              ),
            ),
        })),
        {
          path: 'user.json',
          open: () =>
            textStream(
              (async function* () {
                await progress.report(60, 'Collecting user metadata');
                yield `{"user":${head.user},"guild_memberships":${head.guildMemberships}}`;
              })(),
            ),
        },
      ],
      // Looked up while the messages are written.
      assetEntries(storage, avatar),
    ),
  };
}
