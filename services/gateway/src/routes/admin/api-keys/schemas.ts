import { z } from 'zod';
import { LIMITS } from '@switchboard/contracts';

const { apiKeys } = LIMITS;
/** ACL strings are free-form (a `*` holder may grant any); bounded so a row stays small. */
const ACL_MAX_LENGTH = 100;

/** `CreateAdminApiKeyRequest` (docs/decisions.md#fluxer-admin-key-routes). */
export const createApiKeySchema = z.object({
  // Stored as sent (not trimmed), but a name of only white space is no name.
  name: z
    .string()
    .min(apiKeys.nameMinLength)
    .max(apiKeys.nameMaxLength)
    .refine((name) => /\S/.test(name), { message: 'Name must contain a non-whitespace character.' }),
  acls: z.array(z.string().min(1).max(ACL_MAX_LENGTH)).max(apiKeys.maxAcls),
  // Absent: never expires. null, 0, 366, 1.5 and "30" are all 400.
  expires_in_days: z.number().int().min(apiKeys.expiresInDays.min).max(apiKeys.expiresInDays.max).optional(),
});

export type CreateApiKeyBody = z.output<typeof createApiKeySchema>;
