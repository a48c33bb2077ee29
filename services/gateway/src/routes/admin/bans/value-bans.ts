import type { RequestHandler } from 'express';
import {
  deleteValueBans,
  findLiveValueBan,
  listValueBans,
  upsertValueBans,
  withTransaction,
  type ValueBanKind,
} from '@switchboard/db';
import { validate } from '@switchboard/http';
import { recordAudit } from '../../../admin-auth/index.ts';
import type { GatewayDeps } from '../../../deps.ts';
import type { AdminHandlers } from '../handlers.ts';
import { actingAdmin, banAuditEntries, page } from './common.ts';
import { decodeCursor } from './cursor.ts';
import { presentValueBanList, presentValueCheck } from './presenters.ts';
import {
  emailAddSchema,
  emailCheckSchema,
  emailRemoveSchema,
  listSchema,
  phoneAddSchema,
  phoneCheckSchema,
  phoneRemoveSchema,
} from './schemas.ts';

const SCHEMAS = {
  email: {
    add: emailAddSchema,
    remove: emailRemoveSchema,
    check: (body: unknown) => validate(emailCheckSchema, body).email,
  },
  phone: {
    add: phoneAddSchema,
    remove: phoneRemoveSchema,
    check: (body: unknown) => validate(phoneCheckSchema, body).phone,
  },
};

/** Stored values are canonical emails or E.164 numbers: the cursor key is one of those. */
const VALUE_KEY = /^\S+$/;

function addHandler(kind: ValueBanKind, { pool, ids }: GatewayDeps): RequestHandler {
  return async (req, res) => {
    const body = validate(SCHEMAS[kind].add, req.body);
    const admin = actingAdmin(req, res, body.reason);
    const values = [...new Set(body.values)];
    await withTransaction(pool, async (client) => {
      await upsertValueBans(client, kind, values, {
        reason: admin.banReason,
        expiresAt: body.expiresAt,
        createdBy: admin.adminUserId,
      });
      await recordAudit(client, ids, banAuditEntries(admin, kind, 'ban', values));
    });
    res.status(204).end();
  };
}

function removeHandler(kind: ValueBanKind, { pool, ids }: GatewayDeps): RequestHandler {
  return async (req, res) => {
    const values = [...new Set(validate(SCHEMAS[kind].remove, req.body).values)];
    const admin = actingAdmin(req, res);
    await withTransaction(pool, async (client) => {
      await deleteValueBans(client, kind, values);
      await recordAudit(client, ids, banAuditEntries(admin, kind, 'unban', values));
    });
    res.status(204).end();
  };
}

function checkHandler(kind: ValueBanKind, { pool }: GatewayDeps): RequestHandler {
  return async (req, res) => {
    const value = SCHEMAS[kind].check(req.body);
    res.json(presentValueCheck(await findLiveValueBan(pool, kind, value)));
  };
}

function listHandler(kind: ValueBanKind, { pool }: GatewayDeps): RequestHandler {
  return async (req, res) => {
    const query = validate(listSchema, req.body);
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor, VALUE_KEY);
    const rows = await listValueBans(pool, kind, {
      limit: query.limit + 1,
      after,
      includeExpired: query.include_expired,
      contains: query.contains,
    });
    const { rows: bans, nextCursor } = page(rows, query.limit, (ban) => ({ time: ban.cursorTime, key: ban.value }));
    res.json(presentValueBanList(kind, bans, query.simple, nextCursor));
  };
}

/** The four routes of email or phone bans. */
export function valueBanHandlers(kind: ValueBanKind, deps: GatewayDeps): AdminHandlers {
  const base = `/v1/admin/bans/${kind}`;
  return {
    [`POST ${base}/add`]: addHandler(kind, deps),
    [`POST ${base}/check`]: checkHandler(kind, deps),
    [`POST ${base}/list`]: listHandler(kind, deps),
    [`POST ${base}/remove`]: removeHandler(kind, deps),
  };
}
