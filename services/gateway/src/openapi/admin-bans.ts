import type { z } from 'zod';
import {
  banCheckResponseSchema,
  emailBanListResponseSchema,
  ipBanListResponseSchema,
  phoneBanListResponseSchema,
} from '@switchboard/contracts';
import * as bans from '../routes/admin/bans/schemas.ts';
import type { AdminDoc } from './admin-docs.ts';
import * as ex from './examples/index.ts';
import { NO_CONTENT, presented } from './operation.ts';

const BANNED = { email: 'email addresses', ip: 'IP addresses or CIDR ranges', phone: 'phone numbers' } as const;

/** A kind's schemas, and an example value and ban of it. */
interface BanKind {
  add: z.ZodType;
  check: z.ZodType;
  remove: z.ZodType;
  list: z.ZodType;
  value: string;
  ban: unknown;
}

const KINDS: Record<keyof typeof BANNED, BanKind> = {
  email: {
    add: bans.emailAddSchema,
    check: bans.emailCheckSchema,
    remove: bans.emailRemoveSchema,
    list: emailBanListResponseSchema,
    value: ex.EMAIL_BAN.email,
    ban: ex.EMAIL_BAN,
  },
  ip: {
    add: bans.ipAddSchema,
    check: bans.ipCheckSchema,
    remove: bans.ipRemoveSchema,
    list: ipBanListResponseSchema,
    value: ex.IP_BAN.ip,
    ban: ex.IP_BAN,
  },
  phone: {
    add: bans.phoneAddSchema,
    check: bans.phoneCheckSchema,
    remove: bans.phoneRemoveSchema,
    list: phoneBanListResponseSchema,
    value: ex.PHONE_BAN.phone,
    ban: ex.PHONE_BAN,
  },
};

/** The four routes of one kind of ban (docs/decisions.md#bans), keyed by routeKey(). */
export function banDocs(kind: keyof typeof BANNED): Record<string, AdminDoc> {
  const schemas = KINDS[kind];
  const prefix = `POST /v1/admin/bans/${kind}`;
  const values = BANNED[kind];
  const one = { [kind]: schemas.value };
  return {
    [`${prefix}/add`]: {
      summary: `Ban ${values}`,
      body: schemas.add,
      requestExample: { ...one, reason: 'Credential stuffing', expires_in_seconds: 604_800 },
      success: [NO_CONTENT],
    },
    [`${prefix}/check`]: {
      summary: `Check a ban on one of the ${values}`,
      body: schemas.check,
      requestExample: one,
      success: [
        presented('Whether it is banned, with reason and expiry.', banCheckResponseSchema, {
          ...ex.BAN_CHECK_HIT,
          matched: schemas.value,
        }),
      ],
    },
    [`${prefix}/list`]: {
      summary: `List banned ${values}`,
      body: bans.listSchema,
      requestExample: { limit: 50 },
      success: [
        presented('A page of bans and `next_cursor`.', schemas.list, { bans: [schemas.ban], next_cursor: null }),
      ],
    },
    [`${prefix}/remove`]: {
      summary: `Lift bans on ${values}`,
      body: schemas.remove,
      requestExample: one,
      success: [NO_CONTENT],
    },
  };
}
