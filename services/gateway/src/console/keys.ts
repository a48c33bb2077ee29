import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { LIMITS } from '@switchboard/contracts';
import { adminPrincipal, type AdminPrincipal } from '../admin-auth/index.ts';
import { grantableAclGroups } from './acl-groups.ts';
import { consoleSessionToken } from './admin-api.ts';
import { createdSecrets } from './created-secrets.ts';
import { apiErrorText, field, fieldList, parseForm } from './form.ts';
import { html, timeCell, type Html } from './html.ts';
import type { ConsoleContext } from './index.ts';
import { page } from './layout.ts';
import { noticeOf } from './notices.ts';
import { reasonField } from './reason-field.ts';

const SCREEN = '/keys';
const API = '/v1/admin/api-keys';
const DAY_MS = 86_400_000;
const EXPIRY_DAYS = [1, 7, 30, 90, 365] as const;
const DEFAULT_EXPIRY_DAYS = 30;

interface ListedKey {
  key_id: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
  acls: string[];
}

const createForm = z.object({
  name: field,
  expires: field,
  acls: fieldList,
  reason: field,
});
type CreateForm = z.output<typeof createForm>;

const revokeForm = z.object({ confirm: field, reason: field });

/**
 * The expiry choices: whole days up to the creator key's own remaining days (the create route
 * refuses more), and "never" only for a creator that never expires.
 */
function expiryChoices(principal: AdminPrincipal): Array<{ value: string; label: string }> {
  const expiresAt = principal.keyExpiresAt;
  const daysLeft = expiresAt === null ? null : Math.max(1, Math.ceil((expiresAt.getTime() - Date.now()) / DAY_MS));
  const days = daysLeft === null ? [...EXPIRY_DAYS] : [...EXPIRY_DAYS.filter((d) => d < daysLeft), daysLeft];
  const choices = days.map((d) => ({ value: String(d), label: d === 1 ? '1 day' : `${d} days` }));
  return daysLeft === null ? [...choices, { value: 'never', label: 'Never (not recommended)' }] : choices;
}

function createFormPage(
  ctx: ConsoleContext,
  principal: AdminPrincipal,
  values: Partial<CreateForm>,
  error: string | null,
): string {
  const ticked = new Set(values.acls ?? []);
  const chosen = values.expires ?? String(DEFAULT_EXPIRY_DAYS);
  const groups = grantableAclGroups(principal).map((group, i) => {
    const id = `acl-group-${i}`;
    const boxes = group.acls.map(
      ({ acl, label }) =>
        html`<div class="check"><input type="checkbox" id="acl-${acl}" name="acls" value="${acl}"${ticked.has(acl) ? html` checked` : ''}><label for="acl-${acl}">${label} <code>${acl}</code></label></div>`,
    );
    return html`<fieldset><legend>${group.name} <button type="button" class="expander" aria-expanded="true" aria-controls="${id}" hidden>Show or hide</button></legend><div id="${id}">${boxes}</div></fieldset>`;
  });
  const options = expiryChoices(principal).map(
    (choice) =>
      html`<option value="${choice.value}"${choice.value === chosen ? html` selected` : ''}>${choice.label}</option>`,
  );
  return page(
    { base: ctx.base, title: 'Create an API key', principal, current: SCREEN, error },
    html`<form method="post" action="${ctx.base}${SCREEN}/new">
<label for="name">Name</label>
<input type="text" id="name" name="name" required maxlength="${LIMITS.apiKeys.nameMaxLength}" value="${values.name ?? ''}">
<label for="expires">Expires after</label>
<select id="expires" name="expires">${options}</select>
<h2>What the key may do</h2>
<p class="hint">Nothing is ticked: tick only what the key's holder needs. Only ACLs you hold yourself are offered.</p>
${groups.length === 0 ? html`<p>You hold no ACL you could grant.</p>` : groups}
${reasonField({ id: 'reason', required: false, value: values.reason })}
<p><button type="submit">Create key</button> <a href="${ctx.base}${SCREEN}">Cancel</a></p>
</form>`,
  );
}

function keyTable(ctx: ConsoleContext, keys: ListedKey[]): Html {
  if (keys.length === 0) return html`<p>You have no live keys.</p>`;
  const rows = keys.map(
    (key) => html`<tr>
<td>${key.name}</td>
<td>${key.acls.map((acl) => html`<code>${acl}</code> `)}</td>
<td>${timeCell(key.created_at, '')}</td>
<td>${timeCell(key.last_used_at, 'Never used')}</td>
<td>${timeCell(key.expires_at, 'Never expires')}</td>
<td><a href="${ctx.base}${SCREEN}/${key.key_id}/revoke" data-confirm aria-label="Revoke the key ${key.name}">Revoke…</a></td>
</tr>`,
  );
  return html`<table><caption>Your live keys</caption><thead><tr><th scope="col">Name</th><th scope="col">ACLs</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Expires</th><th scope="col">Action</th></tr></thead><tbody>${rows}</tbody></table>`;
}

async function listKeys(ctx: ConsoleContext, req: Request, res: Response): Promise<ListedKey[] | string> {
  const answer = await ctx.api(req, res, { method: 'GET', path: API });
  return answer.status === 200 ? (answer.body as ListedKey[]) : apiErrorText(answer.body, answer.status);
}

function expiresInDays(expires: string | undefined): number | undefined | 'bad' {
  if (expires === 'never') return undefined;
  const days = Number(expires);
  return Number.isInteger(days) ? days : 'bad';
}

/** The API keys screen: list, create (secret shown once), revoke with a confirmation step. */
export function keyScreens(ctx: ConsoleContext): Router {
  const { base } = ctx;
  const secrets = createdSecrets(ctx.deps.redis, ctx.deps.config.REDIS_PREFIX);
  const router = Router();

  router.get(SCREEN, async (req, res) => {
    const principal = adminPrincipal(res);
    const keys = await listKeys(ctx, req, res);
    const failed = typeof keys === 'string';
    res
      .status(failed ? 403 : 200)
      .type('html')
      .send(
        page(
          {
            base,
            title: 'API keys',
            principal,
            current: SCREEN,
            notice: noticeOf(req.query),
            error: failed ? keys : null,
          },
          failed
            ? html``
            : html`<p><a class="button" href="${base}${SCREEN}/new">Create a key</a></p>${keyTable(ctx, keys)}`,
        ),
      );
  });

  router.get(`${SCREEN}/new`, (_req, res) => {
    res.type('html').send(createFormPage(ctx, adminPrincipal(res), {}, null));
  });

  router.post(`${SCREEN}/new`, async (req, res) => {
    const principal = adminPrincipal(res);
    const form = parseForm(createForm, req);
    const values = form.ok ? form.value : {};
    const days = form.ok ? expiresInDays(form.value.expires) : 'bad';
    if (!form.ok || days === 'bad') {
      res
        .status(400)
        .type('html')
        .send(createFormPage(ctx, principal, values, 'The form is incomplete or malformed.'));
      return;
    }
    const answer = await ctx.api(req, res, {
      method: 'POST',
      path: API,
      body: {
        name: form.value.name ?? '',
        acls: form.value.acls,
        ...(days === undefined ? {} : { expires_in_days: days }),
      },
      reason: form.value.reason ?? null,
    });
    if (answer.status !== 200) {
      const error = apiErrorText(answer.body, answer.status);
      res
        .status(answer.status)
        .type('html')
        .send(createFormPage(ctx, principal, form.value, error));
      return;
    }
    const created = answer.body as ListedKey & { key: string };
    const id = await secrets.put(
      {
        keyId: created.key_id,
        name: created.name,
        secret: created.key,
        acls: created.acls,
        expiresAt: created.expires_at,
      },
      consoleSessionToken(res),
    );
    res.redirect(303, `${base}${SCREEN}/created/${id}`);
  });

  router.get(`${SCREEN}/created/:id`, async (req, res) => {
    const created = await secrets.take(String(req.params['id']), consoleSessionToken(res));
    const body =
      created === null
        ? html`<p>This key's secret was already shown, or the page was opened too late. It is never shown again: revoke the key and create another if it was not copied.</p>`
        : html`<p><strong>Copy the secret now: this is the only time it is shown.</strong></p>
<label for="secret">Secret of “${created.name}”</label>
<input type="text" id="secret" class="secret" readonly value="${created.secret}">
<button type="button" data-copy="secret" data-copy-status="copy-status" hidden>Copy the secret</button>
<p id="copy-status" role="status"></p>
<p>ACLs: ${created.acls.map((acl) => html`<code>${acl}</code> `)}</p>
<p>Expires: ${timeCell(created.expiresAt, 'never')}</p>`;
    res
      .status(created === null ? 410 : 200)
      .type('html')
      .send(
        page(
          { base, title: 'Key created', principal: adminPrincipal(res), current: SCREEN },
          html`${body}<p><a href="${base}${SCREEN}">Back to your keys</a></p>`,
        ),
      );
  });

  router.get(`${SCREEN}/:keyId/revoke`, async (req, res) => {
    const keys = await listKeys(ctx, req, res);
    const key = typeof keys === 'string' ? undefined : keys.find((k) => k.key_id === req.params['keyId']);
    const principal = adminPrincipal(res);
    if (key === undefined) {
      res
        .status(404)
        .type('html')
        .send(
          page(
            {
              base,
              title: 'Revoke a key',
              principal,
              current: SCREEN,
              error: typeof keys === 'string' ? keys : 'No live key of yours has that id.',
            },
            html`<p><a href="${base}${SCREEN}">Back to your keys</a></p>`,
          ),
        );
      return;
    }
    res.type('html').send(
      page(
        { base, title: `Revoke “${key.name}”?`, principal, current: SCREEN },
        html`<p>Anything using this key stops working at once, on every gateway. This cannot be undone.</p>
<form method="post" action="${base}${SCREEN}/${key.key_id}/revoke">
<input type="hidden" name="confirm" value="revoke">
${reasonField({ id: 'reason', required: false })}
<p><button type="submit" class="danger">Revoke the key</button> <a href="${base}${SCREEN}" data-dismiss>Cancel</a></p>
</form>`,
      ),
    );
  });

  router.post(`${SCREEN}/:keyId/revoke`, async (req, res) => {
    const keyId = String(req.params['keyId']);
    const form = parseForm(revokeForm, req);
    // Only the confirmation page sends `confirm`: anything else is shown that page first.
    if (!form.ok || form.value.confirm !== 'revoke') {
      res.redirect(303, `${base}${SCREEN}/${encodeURIComponent(keyId)}/revoke`);
      return;
    }
    const answer = await ctx.api(req, res, {
      method: 'DELETE',
      path: `${API}/${encodeURIComponent(keyId)}`,
      reason: form.value.reason ?? null,
    });
    if (answer.status === 200) return res.redirect(303, `${base}${SCREEN}?done=key-revoked`);
    res
      .status(answer.status)
      .type('html')
      .send(
        page(
          {
            base,
            title: 'Revoke a key',
            principal: adminPrincipal(res),
            current: SCREEN,
            error: apiErrorText(answer.body, answer.status),
          },
          html`<p><a href="${base}${SCREEN}">Back to your keys</a></p>`,
        ),
      );
  });

  return router;
}
