import { z } from 'zod';
import { LIMITS } from '@switchboard/contracts';
import { emailSchema, ipSchema, normalizeText, phoneSchema, type IpValue } from './values.ts';

/** What an add or remove names: one value (`email`, as Fluxer) and/or many (`emails`). */
export interface BanKindNames {
  single: string;
  plural: string;
}

export const EMAIL_NAMES: BanKindNames = { single: 'email', plural: 'emails' };
export const PHONE_NAMES: BanKindNames = { single: 'phone', plural: 'phones' };
export const IP_NAMES: BanKindNames = { single: 'ip', plural: 'ips' };

const MAX_VALUES = LIMITS.bans.maxValuesPerRequest;
/** 100 years: far enough for "practically forever", near enough for a valid timestamp. */
const MAX_EXPIRES_IN_SECONDS = 100 * 365 * 86_400;

const reasonSchema = z
  .string()
  .transform(normalizeText)
  .pipe(z.string().max(LIMITS.bans.reasonMaxLength))
  .transform((reason) => (reason === '' ? null : reason));

const expiryShape = {
  reason: reasonSchema.optional(),
  expires_at: z.iso.datetime({ offset: true }).optional(),
  expires_in_seconds: z.number().int().min(1).max(MAX_EXPIRES_IN_SECONDS).optional(),
};

type Issue = { path: string[]; message: string; code?: string };

function valuesOf<T>(body: Record<string, unknown>, names: BanKindNames, issues: Issue[]): T[] {
  const single = body[names.single] as T | undefined;
  const many = (body[names.plural] as T[] | undefined) ?? [];
  const values = single === undefined ? many : [single, ...many];
  if (values.length === 0)
    issues.push({ path: [names.single], message: `Give ${names.single} or ${names.plural}.`, code: 'REQUIRED' });
  if (values.length > MAX_VALUES)
    issues.push({ path: [names.plural], message: `At most ${MAX_VALUES} values in one request.`, code: 'TOO_BIG' });
  return values;
}

function expiryOf(
  body: { expires_at?: string | undefined; expires_in_seconds?: number | undefined },
  now: number,
  issues: Issue[],
): Date | null {
  if (body.expires_at !== undefined && body.expires_in_seconds !== undefined) {
    issues.push({
      path: ['expires_in_seconds'],
      message: 'Give expires_at or expires_in_seconds, not both.',
      code: 'INVALID_VALUE',
    });
    return null;
  }
  if (body.expires_in_seconds !== undefined) return new Date(now + body.expires_in_seconds * 1000);
  if (body.expires_at === undefined) return null;
  const expiresAt = new Date(body.expires_at);
  if (expiresAt.getTime() <= now)
    issues.push({ path: ['expires_at'], message: 'Must be in the future.', code: 'INVALID_VALUE' });
  return expiresAt;
}

function report(ctx: z.RefinementCtx, issues: Issue[]): void {
  for (const issue of issues) {
    ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message, params: { code: issue.code } });
  }
}

/**
 * An add body: the values (single and array merged, at most LIMITS.bans.maxValuesPerRequest),
 * the reason and the expiry (`expires_at` in the future, or `expires_in_seconds`).
 */
function addSchema<T>(names: BanKindNames, value: z.ZodType<T, string>, extra: z.ZodRawShape = {}) {
  const shape = {
    ...expiryShape,
    ...extra,
    [names.single]: value.optional(),
    [names.plural]: z.array(value).min(1).max(MAX_VALUES).optional(),
  };
  return z.object(shape).transform((parsed, ctx) => {
    const body = parsed as Record<string, unknown> & Parameters<typeof expiryOf>[0];
    const issues: Issue[] = [];
    const values = valuesOf<T>(body, names, issues);
    const expiresAt = expiryOf(body, Date.now(), issues);
    report(ctx, issues);
    const reason = (body['reason'] as string | null | undefined) ?? null;
    return { values, reason, expiresAt, retroactive: body['retroactive'] === true, force: body['force'] === true };
  });
}

function removeSchema<T>(names: BanKindNames, value: z.ZodType<T, string>) {
  const shape = {
    [names.single]: value.optional(),
    [names.plural]: z.array(value).min(1).max(MAX_VALUES).optional(),
  };
  return z.object(shape).transform((parsed, ctx) => {
    const issues: Issue[] = [];
    const values = valuesOf<T>(parsed as Record<string, unknown>, names, issues);
    report(ctx, issues);
    return { values };
  });
}

export const emailAddSchema = addSchema(EMAIL_NAMES, emailSchema, {});
export const phoneAddSchema = addSchema(PHONE_NAMES, phoneSchema, {});
export const ipAddSchema = addSchema<IpValue>(IP_NAMES, ipSchema, {
  retroactive: z.boolean().optional(),
  // Accept ranges wider than IP_BAN_MIN_PREFIX_V4 / _V6; audited as `forced`.
  force: z.boolean().optional(),
});
export const emailRemoveSchema = removeSchema(EMAIL_NAMES, emailSchema);
export const phoneRemoveSchema = removeSchema(PHONE_NAMES, phoneSchema);
export const ipRemoveSchema = removeSchema<IpValue>(IP_NAMES, ipSchema);

export const emailCheckSchema = z.object({ email: emailSchema });
export const phoneCheckSchema = z.object({ phone: phoneSchema });
/** An address, or a range: is the whole range covered? */
export const ipCheckSchema = z.object({ ip: ipSchema });

export const listSchema = z.object({
  limit: z.number().int().min(LIMITS.bans.list.min).max(LIMITS.bans.list.max).default(LIMITS.bans.list.default),
  cursor: z.string().max(512).optional(),
  /** Fluxer's bare string arrays (email and phone lists). */
  simple: z.boolean().default(false),
  /** Expired bans no longer apply and are hidden unless asked for. */
  include_expired: z.boolean().default(false),
  /** Only bans whose value contains this text, any case (an IP ban's network or written form). */
  contains: z.string().min(1).max(LIMITS.bans.containsMaxLength).optional(),
});

export type ListRequest = z.output<typeof listSchema>;
