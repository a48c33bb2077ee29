import { z } from 'zod';
import { LIMITS, snowflakeSchema } from '@switchboard/contracts';
import type { AuditLogFilters } from '@switchboard/db';

const { list } = LIMITS.auditLogs;
const DAY_MS = 86_400_000;

/** An integer given as a JSON number or a decimal string (panels differ), within bounds. */
function integer(min: number, max: number) {
  return z
    .union([
      z.number(),
      z
        .string()
        .regex(/^-?[0-9]+$/)
        .transform(Number),
    ])
    .pipe(z.number().int().min(min).max(max));
}

/** `2024-05-01` (the whole day) or a date-time with an offset (`…Z`, `…+02:00`). */
const dateBound = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

/** Exact-match filters and the date range of list and search (docs/decisions.md#audit-logs). */
const filterFields = {
  admin_user_id: snowflakeSchema.optional(),
  target_type: z.string().min(1).max(64).optional(),
  // A string filter: `"0"`, `"1.2.3.4"` and ids alike (Fluxer's BigInt() made those a 500).
  target_id: z
    .union([
      z.string().min(1).max(LIMITS.auditLogs.targetIdMaxLength),
      z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
    ])
    .transform(String)
    .optional(),
  action: z.string().min(1).max(100).optional(),
  from: dateBound.optional(),
  to: dateBound.optional(),
  limit: integer(list.min, list.max).default(list.default),
  offset: integer(0, 2 ** 31 - 1).default(0),
};

/** The start of `from`, and the first instant after `to` (a whole day for a bare date). */
function rangeStart(value: string): Date {
  return new Date(value);
}
function rangeEnd(value: string): Date {
  const date = new Date(value);
  return new Date(date.getTime() + (value.length === 10 ? DAY_MS : 1));
}

function checkRange(body: { from?: string | undefined; to?: string | undefined }, ctx: z.RefinementCtx): void {
  if (body.from !== undefined && body.to !== undefined && rangeStart(body.from) >= rangeEnd(body.to)) {
    ctx.addIssue({ code: 'custom', path: ['to'], message: '`to` must not be before `from`.' });
  }
}

export const listAuditLogsSchema = z.object(filterFields).superRefine(checkRange);

export const searchAuditLogsSchema = z
  .object({
    ...filterFields,
    query: z.string().trim().min(1).max(1024),
    sort_by: z.enum(['createdAt', 'relevance']).default('createdAt'),
    sort_order: z.enum(['asc', 'desc']).default('desc'),
  })
  .superRefine(checkRange);

export function toFilters(body: z.output<typeof listAuditLogsSchema>): AuditLogFilters {
  return {
    adminUserId: body.admin_user_id,
    targetType: body.target_type,
    targetId: body.target_id,
    action: body.action,
    from: body.from === undefined ? undefined : rangeStart(body.from),
    before: body.to === undefined ? undefined : rangeEnd(body.to),
  };
}
