import type { RequestHandler } from 'express';
import { z } from 'zod';
import { LIMITS, presentMessage, snowflakeSchema } from '@switchboard/contracts';
import { listChannelMessages, type Pool } from '@switchboard/db';
import { validate } from '@switchboard/http';
import { guildAccess } from '../../permissions/index.ts';

const { min, max, default: defaultLimit } = LIMITS.messages.list;

/** `?limit` (1–100, default 50), `?before` and `?after` (snowflakes), as Discord's. */
export const listMessagesQuery = z.object({
  limit: z.coerce.number().int().min(min).max(max).default(defaultLimit),
  before: snowflakeSchema.optional(),
  after: snowflakeSchema.optional(),
});

/**
 * GET /channels/{channel_id}/messages: one page, newest first, Discord-shaped (the shared
 * presenter, so a webhook's `wait=true` answer reads the same). Behind VIEW_CHANNEL and
 * READ_MESSAGE_HISTORY in the channel (see the router).
 */
export function listMessages(pool: Pool): RequestHandler {
  return async (req, res) => {
    const query = validate(listMessagesQuery, req.query);
    const messages = await listChannelMessages(pool, guildAccess(res).subjectId, query);
    res.json(messages.map(presentMessage));
  };
}
