import { Router, type Request, type Response } from 'express';
import type { AclName } from '@switchboard/contracts';
import { adminPrincipal, grantedAcl } from '../admin-auth/index.ts';
import {
  addForm,
  KINDS,
  listQuery,
  PAGE_SIZE,
  removeForm,
  valuesOf,
  type AddForm,
  type BanKind,
  type KindName,
  type ListedBan,
} from './ban-kinds.ts';
import {
  addFailedPage,
  addFormHtml,
  banTable,
  checkResult,
  pager,
  removeConfirmPage,
  reviewPage,
  searchForm,
} from './ban-pages.ts';
import { apiErrorText, parseForm } from './form.ts';
import { html, type Html } from './html.ts';
import type { ConsoleContext } from './index.ts';
import { page, sendRefusal } from './layout.ts';
import { noticeOf } from './notices.ts';
import { routeAcls } from './route-acls.ts';

/** Who sees each list's add form and remove links: the ACLs of those admin routes, read at start. */
const WRITE_ACLS = Object.fromEntries(
  (Object.keys(KINDS) as KindName[]).map((name) => [
    name,
    { add: routeAcls(`POST /v1/admin/bans/${name}/add`), remove: routeAcls(`POST /v1/admin/bans/${name}/remove`) },
  ]),
) as Record<KindName, { add: readonly AclName[]; remove: readonly AclName[] }>;

async function listPage(ctx: ConsoleContext, name: KindName, req: Request, res: Response): Promise<void> {
  const kind: BanKind = KINDS[name];
  const principal = adminPrincipal(res);
  const query = listQuery.parse({ ...req.query, limit: req.query['limit'] ?? PAGE_SIZE });
  const screen = `${ctx.base}/bans/${name}`;
  let checked: Html = html``;
  if (query.check !== undefined && query.check.trim() !== '') {
    const value = query.check.trim();
    const answer = await ctx.api(req, res, {
      method: 'POST',
      path: `/v1/admin/bans/${name}/check`,
      body: { [kind.single]: value },
    });
    checked = checkResult(value, answer.status, answer.body);
  }
  const answer = await ctx.api(req, res, {
    method: 'POST',
    path: `/v1/admin/bans/${name}/list`,
    body: {
      limit: query.limit,
      ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
      ...(query.q === undefined ? {} : { contains: query.q }),
    },
  });
  const title = kind.title;
  const common = { base: ctx.base, title, principal, current: `/bans/${name}`, notice: noticeOf(req.query) };
  if (answer.status !== 200) {
    res
      .status(answer.status)
      .type('html')
      .send(page({ ...common, error: apiErrorText(answer.body, answer.status) }, html``));
    return;
  }
  const list = answer.body as { bans: ListedBan[]; next_cursor: string | null };
  const canAdd = grantedAcl(principal, WRITE_ACLS[name].add) !== null;
  const canRemove = grantedAcl(principal, WRITE_ACLS[name].remove) !== null;
  res.type('html').send(
    page(
      common,
      html`<section aria-labelledby="check-heading"><h2 id="check-heading">Check a value</h2>
<form method="get" action="${screen}" role="search">
<label for="check">${kind.noun[0]!.toUpperCase()}${kind.noun.slice(1)}</label>
<input type="text" id="check" name="check" value="${query.check ?? ''}">
<button type="submit">Check</button>
</form>${checked}</section>
${canAdd ? html`<section aria-labelledby="add-heading"><h2 id="add-heading">Add a ban</h2>${addFormHtml(ctx, name, {})}</section>` : ''}
<section aria-labelledby="list-heading"><h2 id="list-heading">Bans</h2>
${searchForm(screen, query)}${banTable(ctx, name, list.bans, canRemove, query.q)}${pager(screen, query, list.next_cursor)}</section>`,
    ),
  );
}

function addBody(name: KindName, form: AddForm, values: string[]): Record<string, unknown> {
  const kind: BanKind = KINDS[name];
  const body: Record<string, unknown> = { [kind.plural]: values, reason: form.reason ?? '' };
  if (form.expires !== undefined && form.expires !== 'never') body['expires_in_seconds'] = Number(form.expires);
  if (name === 'ip') {
    body['retroactive'] = form.retroactive === 'on';
    body['force'] = form.force === 'on';
  }
  return body;
}

/**
 * The three ban screens: check, add (review, then confirm), list page by page, remove with a
 * confirmation step. Values travel in form fields and query strings, escaped, never in script.
 */
export function banScreens(ctx: ConsoleContext): Router {
  const router = Router();
  for (const name of Object.keys(KINDS) as KindName[]) {
    const kind: BanKind = KINDS[name];
    const screen = `/bans/${name}`;
    router.get(screen, (req, res) => listPage(ctx, name, req, res));

    router.post(`${screen}/add`, async (req, res) => {
      const form = parseForm(addForm, req);
      const values = form.ok ? valuesOf(form.value.values) : [];
      if (!form.ok || values.length === 0 || !form.value.reason) {
        const error = 'Give at least one value and a reason.';
        res
          .status(400)
          .type('html')
          .send(addFailedPage(ctx, name, res, form.ok ? form.value : {}, error));
        return;
      }
      if (form.value.confirm !== 'ban') {
        res.type('html').send(reviewPage(ctx, name, res, form.value, values));
        return;
      }
      const answer = await ctx.api(req, res, {
        method: 'POST',
        path: `/v1/admin/bans/${name}/add`,
        body: addBody(name, form.value, values),
        reason: form.value.reason,
      });
      if (answer.status === 204) return res.redirect(303, `${ctx.base}${screen}?done=ban-added`);
      res
        .status(answer.status)
        .type('html')
        .send(addFailedPage(ctx, name, res, form.value, apiErrorText(answer.body, answer.status)));
    });

    router.get(`${screen}/remove`, (req, res) => {
      const value = typeof req.query['value'] === 'string' ? req.query['value'] : '';
      if (value === '') return res.redirect(303, `${ctx.base}${screen}`);
      res.type('html').send(removeConfirmPage(ctx, name, res, value));
    });

    router.post(`${screen}/remove`, async (req, res) => {
      const form = parseForm(removeForm, req);
      const value = form.ok ? form.value.value : undefined;
      if (!form.ok || value === undefined) return res.redirect(303, `${ctx.base}${screen}`);
      // Only the confirmation page sends `confirm` (and asks for the reason).
      if (form.value.confirm !== 'remove' || !form.value.reason) {
        res.type('html').send(removeConfirmPage(ctx, name, res, value));
        return;
      }
      const answer = await ctx.api(req, res, {
        method: 'POST',
        path: `/v1/admin/bans/${name}/remove`,
        body: { [kind.single]: value },
        reason: form.value.reason,
      });
      if (answer.status === 204) return res.redirect(303, `${ctx.base}${screen}?done=ban-removed`);
      sendRefusal(
        res,
        { base: ctx.base, title: kind.title, current: screen },
        answer,
        html`<p><a href="${ctx.base}${screen}">Back to the list</a></p>`,
      );
    });
  }
  return router;
}
