// The three ban lists the console shows, their form and query schemas, and the expiry choices.
import { z } from 'zod';
import { LIMITS } from '@switchboard/contracts';
import { field } from './form.ts';

export interface BanKind {
  title: string;
  /** The body field of one value, and of many (`ip` / `ips`). */
  single: string;
  plural: string;
  noun: string;
}

export const KINDS = {
  email: {
    title: 'Email bans',
    single: 'email',
    plural: 'emails',
    noun: 'email address',
  },
  ip: {
    title: 'IP bans',
    single: 'ip',
    plural: 'ips',
    noun: 'address or CIDR range',
  },
  phone: {
    title: 'Phone bans',
    single: 'phone',
    plural: 'phones',
    noun: 'phone number',
  },
} as const satisfies Record<string, BanKind>;
export type KindName = keyof typeof KINDS;

/** Expiry choices, in seconds ('never': no expiry). */
export const EXPIRIES: ReadonlyArray<{ value: string; label: string }> = [
  { value: '3600', label: '1 hour' },
  { value: '86400', label: '1 day' },
  { value: '604800', label: '7 days' },
  { value: '2592000', label: '30 days' },
  { value: '7776000', label: '90 days' },
  { value: '31536000', label: '1 year' },
  { value: 'never', label: 'Never' },
];
export const DEFAULT_EXPIRY = '2592000';
export const PAGE_SIZE = 50;

export interface ListedBan {
  reason: string | null;
  expires_at: string | null;
  created_at: string;
  reverse_dns?: string | null;
  [field: string]: unknown;
}

/** In `back`, the first page (which has no cursor); not a base64url character, so never a cursor. */
export const FIRST_PAGE = '~';
/** How many earlier pages `back` remembers: it rides in every link's query string. */
export const MAX_BACK = 10;
const CURSOR = /^[A-Za-z0-9_-]{1,512}$/;

export const listQuery = z.object({
  cursor: z.string().max(512).optional(),
  /**
   * The pages before this one, oldest first, joined by `.` (FIRST_PAGE for the first): the list
   * route pages forward only, so Previous follows this trail back. A bad trail is dropped.
   */
  back: z
    .string()
    .max(MAX_BACK * 513)
    .transform((text) => text.split('.'))
    .pipe(z.array(z.string().refine((entry) => entry === FIRST_PAGE || CURSOR.test(entry))).max(MAX_BACK))
    .optional()
    .catch(undefined),
  limit: z.coerce.number().int().min(LIMITS.bans.list.min).max(LIMITS.bans.list.max).catch(PAGE_SIZE),
  check: z.string().max(512).optional(),
  /** Search: the list route's `contains`. */
  q: z
    .string()
    .max(LIMITS.bans.containsMaxLength)
    .transform((text) => text.trim() || undefined)
    .optional()
    .catch(undefined),
});
export type ListQuery = z.output<typeof listQuery>;

export const addForm = z.object({
  values: z.preprocess((value) => (Array.isArray(value) ? value[0] : value), z.string().max(64 * 1024)),
  reason: field,
  expires: field,
  retroactive: field,
  force: field,
  confirm: field,
});
export type AddForm = z.output<typeof addForm>;

export const removeForm = z.object({ value: field, reason: field, confirm: field });

/** One value a line (commas too): what the add form's text area holds. */
export function valuesOf(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\n,]/)
        .map((value) => value.trim())
        .filter((value) => value !== ''),
    ),
  ];
}

export function expiryLabel(value: string | undefined): string {
  return EXPIRIES.find((choice) => choice.value === value)?.label ?? 'Never';
}
