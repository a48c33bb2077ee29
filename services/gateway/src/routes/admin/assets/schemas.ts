import { z } from 'zod';
import { LIMITS, snowflakeSchema } from '@switchboard/contracts';

/**
 * One emoji or sticker id as Fluxer takes it: 1–64 characters once trimmed
 * (docs/decisions.md#fluxer-asset-purge-by-id).
 */
const assetId = z
  .string()
  .transform((value) => value.trim())
  .pipe(z.string().min(1).max(64));

/**
 * `PurgeGuildAssetsRequest`: `{ids}` (Fluxer's per-item purge of emoji and sticker ids), or
 * `{guild_id}`, every asset of a guild (docs/decisions.md#asset-purges). Exactly one of the two.
 */
export const purgeRequestSchema = z
  .object({
    ids: z.array(assetId).min(1).max(LIMITS.assetPurge.maxIds).optional(),
    guild_id: snowflakeSchema.optional(),
  })
  .refine((body) => (body.ids === undefined) !== (body.guild_id === undefined), {
    message: 'Give either ids or guild_id.',
    path: ['ids'],
  });
