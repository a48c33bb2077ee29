import { z } from 'zod';
import type { BanListPosition } from '@switchboard/db';
import { ApiError } from '@switchboard/http';

/** `cursorTime` as the repository writes it: UTC with microseconds. */
const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const positionSchema = z.tuple([z.string().regex(TIME), z.string().min(1).max(254)]);

/**
 * Opaque to clients: base64url of the last entry's creation time and key, where the next
 * page starts (keyset pagination: stable while bans are added or removed).
 */
export function encodeCursor(position: BanListPosition): string {
  return Buffer.from(JSON.stringify([position.time, position.key])).toString('base64url');
}

/** The position a cursor names; a cursor this service did not write is a 400 on `cursor`. */
export function decodeCursor(cursor: string, keyPattern: RegExp): BanListPosition {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    decoded = undefined;
  }
  const parsed = positionSchema.safeParse(decoded);
  if (!parsed.success || !keyPattern.test(parsed.data[1])) {
    throw new ApiError('INVALID_FORM_BODY', {
      errors: [{ path: 'cursor', message: 'Invalid cursor.', code: 'INVALID_CURSOR' }],
    });
  }
  return { time: parsed.data[0], key: parsed.data[1] };
}
