import { insertGeneratedMessages, type Pool } from '@switchboard/db';
import { snowflakeWorkerId, type SnowflakeGenerator } from '@switchboard/snowflake';

/** Messages per statement: about a second of work each, so progress is steady and bounded. */
export const MESSAGES_PER_STATEMENT = 50_000;
const IDS_PER_MS = 4096n;
const SNOWFLAKE_EPOCH_MS = 1420070400000n;

const PHRASES = [
  'Good morning everyone',
  'Has anyone looked at the latest build?',
  'Deploy finished without errors',
  'Lunch in ten minutes',
  'I pushed a fix for the flaky test',
  'Can someone review my pull request?',
  'The dashboard looks great today',
  'Reminder: standup moved to 10:30',
  'Thanks for the help yesterday!',
  'Who is on call this weekend?',
];

/**
 * Claims a block of message ids from this process's generator: the milliseconds right after
 * its latest id, 4096 ids each, under the worker id that id carries (the one leased now).
 * Nothing else in this process may take ids until the clock has passed the block (see
 * waitPastBlock); other processes have other worker ids.
 */
function claimIdBlock(ids: SnowflakeGenerator, count: number): { startMs: bigint; endMs: bigint; workerId: number } {
  const latest = ids.nextBigInt();
  const startMs = (latest >> 22n) + 1n;
  return {
    startMs,
    endMs: startMs + (BigInt(count) + IDS_PER_MS - 1n) / IDS_PER_MS,
    workerId: snowflakeWorkerId(latest),
  };
}

async function waitPastBlock(endMs: bigint): Promise<void> {
  const wait = Number(endMs + SNOWFLAKE_EPOCH_MS) - Date.now() + 1;
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
}

/** Generates `count` messages of a guild inside PostgreSQL, round-robin over its text channels. */
export async function writeMessages(
  pool: Pool,
  ids: SnowflakeGenerator,
  batch: { guildId: string; channelIds: string[]; authorIds: string[]; count: number },
): Promise<void> {
  if (batch.count === 0) return;
  const { startMs, endMs, workerId } = claimIdBlock(ids, batch.count);
  for (let from = 0; from < batch.count; from += MESSAGES_PER_STATEMENT) {
    await insertGeneratedMessages(pool, {
      guildId: batch.guildId,
      channelIds: batch.channelIds,
      authorIds: batch.authorIds,
      phrases: PHRASES,
      startMs,
      workerId,
      from,
      to: Math.min(from + MESSAGES_PER_STATEMENT, batch.count),
    });
  }
  // As after any bulk load: the planner needs statistics of the new rows now, not whenever
  // autovacuum gets to them (without them, keyset pages of a channel become bitmap scans + sorts).
  if (batch.count >= MESSAGES_PER_STATEMENT) await pool.query('ANALYZE messages');
  await waitPastBlock(endMs);
}
