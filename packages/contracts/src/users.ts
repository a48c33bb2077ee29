import { z } from 'zod';
import { apiSchema } from './api-schemas.ts';

/** What a user presenter needs: a `users` row's public columns (the db repository's shape). */
export interface UserPartialRecord {
  id: string;
  username: string;
  discriminator: number;
  globalName: string | null;
  avatarHash: string | null;
  /** int8 as a decimal string, as every 64-bit column reads. */
  flags: string;
  bot: boolean;
  system: boolean;
}

/**
 * Fluxer's UserPartialResponse (docs/decisions.md#fluxer-webhook-resource). A schema, not only a type: the
 * gateway's OpenAPI document describes responses from it, and the presenter is checked against
 * the same type.
 */
export const userPartialResponseSchema = apiSchema(
  'UserPartial',
  z.object({
    id: z.string(),
    username: z.string(),
    /** Zero-padded to four digits. */
    discriminator: z.string(),
    global_name: z.string().nullable(),
    avatar: z.string().nullable(),
    avatar_color: z.number().int().nullable(),
    /** `true`, or the key is absent. */
    bot: z.literal(true).optional(),
    /** `true`, or the key is absent. */
    system: z.literal(true).optional(),
    flags: z.number().int(),
  }),
);

export type UserPartialResponse = z.output<typeof userPartialResponseSchema>;

/** The flags a client may see; the field is 64 bits wide but public flags fit in 31. */
const PUBLIC_FLAGS_MASK = 0x7fff_ffffn;

export function presentUserPartial(user: UserPartialRecord): UserPartialResponse {
  return {
    id: user.id,
    username: user.username,
    discriminator: String(user.discriminator).padStart(4, '0'),
    global_name: user.globalName,
    avatar: user.avatarHash,
    avatar_color: null,
    ...(user.bot ? { bot: true as const } : {}),
    ...(user.system ? { system: true as const } : {}),
    flags: Number(BigInt(user.flags) & PUBLIC_FLAGS_MASK),
  };
}
