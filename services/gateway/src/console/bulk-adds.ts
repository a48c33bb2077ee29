// The bulk add screen: a guild and user ids, a confirmation naming them (with the reason the
// audit log records), then the operation's live status and the outcome per user.
import { Router, type Response } from 'express';
import { z } from 'zod';
import { ACL, type BulkOperationResult } from '@switchboard/contracts';
import { ApiError } from '@switchboard/http';
import { adminPrincipal } from '../admin-auth/index.ts';
import { valuesOf } from './ban-kinds.ts';
import { field, parseForm } from './form.ts';
import { html, type Html } from './html.ts';
import type { ConsoleContext } from './index.ts';
import { page, requireAcl, sendRefusal } from './layout.ts';
import { isOperationAnswer, operationIdOf, operationStatus, operationStatusRoute } from './operation-view.ts';

export const BULK_ADD_SCREEN = '/bulk/add-members';
const OPERATIONS = '/bulk/operations';
const TITLE = 'Bulk add members';
const bulkForm = z.object({ guild_id: field, user_ids: field, reason: field, confirm: field });
type BulkForm = z.infer<typeof bulkForm>;
const SNOWFLAKE = /^[0-9]{1,20}$/;

/** The API's failure codes in words; a code it adds later reads as itself. */
const FAILURES: Record<string, string> = {
  UNKNOWN_USER: 'Unknown user',
  UNKNOWN_GUILD: 'Unknown guild',
  MAX_GUILDS: 'The user is in too many guilds',
  MAX_GUILD_MEMBERS: 'The guild is full',
};

interface Target {
  guild_id: string;
  user_ids: string[];
}

function targetOf(form: BulkForm): Target | string {
  const guildId = form.guild_id?.trim() ?? '';
  const userIds = valuesOf(form.user_ids ?? '');
  if (!SNOWFLAKE.test(guildId)) return 'Give the guild id (digits only).';
  if (userIds.length === 0) return 'Give at least one user id.';
  const bad = userIds.find((id) => !SNOWFLAKE.test(id));
  return bad === undefined ? { guild_id: guildId, user_ids: userIds } : `Not a user id: ${bad}.`;
}

function formPage(ctx: ConsoleContext, res: Response, form: Partial<BulkForm>, error: string | null = null): string {
  return page(
    { base: ctx.base, title: TITLE, principal: adminPrincipal(res), current: BULK_ADD_SCREEN, error },
    html`<p>Add users to a guild. The next page says who will be added and asks for a reason.</p>
<form method="post" action="${ctx.base}${BULK_ADD_SCREEN}">
<label for="bulk-guild">Guild id</label>
<input type="text" id="bulk-guild" name="guild_id" inputmode="numeric" required value="${form.guild_id ?? ''}">
<label for="bulk-users">User ids (one a line, or separated by commas)</label>
<textarea id="bulk-users" name="user_ids" rows="6" required>${form.user_ids ?? ''}</textarea>
<p><button type="submit">Review the additions</button></p>
</form>`,
  );
}

function confirmPage(ctx: ConsoleContext, res: Response, target: Target, error: string | null = null): string {
  const count = target.user_ids.length;
  return page(
    {
      base: ctx.base,
      title: `Add ${count === 1 ? 'this user' : `these ${count} users`} to guild ${target.guild_id}?`,
      principal: adminPrincipal(res),
      current: BULK_ADD_SCREEN,
      error,
    },
    html`<ul>${target.user_ids.map((id) => html`<li><code>${id}</code></li>`)}</ul>
<form method="post" action="${ctx.base}${BULK_ADD_SCREEN}">
<input type="hidden" name="guild_id" value="${target.guild_id}">
<input type="hidden" name="user_ids" value="${target.user_ids.join('\n')}">
<label for="bulk-reason">Reason (recorded in the audit log)</label>
<input type="text" id="bulk-reason" name="reason" maxlength="512" required>
<input type="hidden" name="confirm" value="add">
<p><button type="submit">Add them</button> <a href="${ctx.base}${BULK_ADD_SCREEN}">Cancel</a></p>
</form>`,
  );
}

/** Per user, as the API reports it (an existing member counts as added there). */
function outcomeTable(result: BulkOperationResult): Html {
  const rows = [
    ...result.successful.map((id) => html`<tr><td><code>${id}</code></td><td>Added (or already a member)</td></tr>`),
    ...result.failed.map(
      (item) => html`<tr><td><code>${item.id}</code></td><td>Failed: ${FAILURES[item.error] ?? item.error}</td></tr>`,
    ),
  ];
  return html`<p>${result.successful.length} added or already members, ${result.failed.length} failed.</p>
<table class="outcomes"><caption>Outcome per user</caption><thead><tr><th scope="col">User</th><th scope="col">Outcome</th></tr></thead><tbody>${rows}</tbody></table>`;
}

function resultPage(ctx: ConsoleContext, res: Response, body: unknown, id: string | null): string {
  const pageUrl = `${ctx.base}${OPERATIONS}/${id}`;
  const status = isOperationAnswer(body)
    ? operationStatus(body, pageUrl, `${pageUrl}/status`)
    : html`<p>Status: <strong role="status">Finished</strong></p>`;
  const finished = !isOperationAnswer(body) || body.status === 'completed';
  return page(
    {
      base: ctx.base,
      title: id === null ? TITLE : `Bulk add ${id}`,
      principal: adminPrincipal(res),
      current: BULK_ADD_SCREEN,
    },
    html`${status}${finished ? outcomeTable(body as BulkOperationResult) : ''}
<p><a href="${ctx.base}${BULK_ADD_SCREEN}">Add more members</a></p>`,
  );
}

/**
 * The bulk add screen (`bulk:add:guild_members`): the form, a confirmation naming the guild and
 * the users and asking for the reason, then the API's operation: its status (polled by the
 * page's script) and, once finished, the outcome per user as the API reports it.
 */
export function bulkAddScreens(ctx: ConsoleContext): Router {
  const router = Router();
  const back = html`<p><a href="${ctx.base}${BULK_ADD_SCREEN}">Back to the bulk add form</a></p>`;
  const refusalOptions = { base: ctx.base, title: TITLE, current: BULK_ADD_SCREEN };
  router.use([BULK_ADD_SCREEN, OPERATIONS], requireAcl(ACL.bulkAddGuildMembers));
  router.get(BULK_ADD_SCREEN, (_req, res) => {
    res.type('html').send(formPage(ctx, res, {}));
  });

  router.post(BULK_ADD_SCREEN, async (req, res) => {
    const form = parseForm(bulkForm, req);
    const value: BulkForm = form.ok ? form.value : {};
    const target = form.ok ? targetOf(value) : 'The form could not be read.';
    if (typeof target === 'string') {
      res
        .status(400)
        .type('html')
        .send(formPage(ctx, res, value, target));
      return;
    }
    // Nothing is sent to the API before the confirmation page's button, which asks for a reason.
    if (value.confirm !== 'add' || !value.reason?.trim()) {
      const error = value.confirm === 'add' ? 'Give a reason.' : null;
      res
        .status(error === null ? 200 : 400)
        .type('html')
        .send(confirmPage(ctx, res, target, error));
      return;
    }
    const answer = await ctx.api(req, res, {
      method: 'POST',
      path: '/v1/admin/bulk/add-guild-members',
      body: target,
      reason: value.reason.trim(),
    });
    if (answer.status === 202) {
      const id = (answer.body as { operation_id: string }).operation_id;
      return res.redirect(303, `${ctx.base}${OPERATIONS}/${id}`);
    }
    // Finished within the API's wait: the answer is the outcome itself (it names no id).
    if (answer.status === 200) return res.type('html').send(resultPage(ctx, res, answer.body, null));
    sendRefusal(res, refusalOptions, answer, back);
  });

  router.get(`${OPERATIONS}/:id`, async (req, res) => {
    const id = operationIdOf(req);
    if (id === null) throw new ApiError('UNKNOWN_BULK_OPERATION');
    const answer = await ctx.api(req, res, { method: 'GET', path: `/v1/admin/bulk/operations/${id}` });
    if (answer.status !== 200) return sendRefusal(res, refusalOptions, answer, back);
    res.type('html').send(resultPage(ctx, res, answer.body, id));
  });

  router.use(operationStatusRoute(ctx, OPERATIONS, (id) => `/v1/admin/bulk/operations/${id}`));
  return router;
}
