// The asset purge screen: ids or a whole guild, a confirmation naming what goes (with the
// reason the audit log records), then the operation's live status and its per-item outcome.
import { Router, type Response } from 'express';
import { z } from 'zod';
import { ACL, type AssetPurgeResult } from '@switchboard/contracts';
import { ApiError } from '@switchboard/http';
import { adminPrincipal } from '../admin-auth/index.ts';
import { valuesOf } from './ban-kinds.ts';
import { field, parseForm } from './form.ts';
import { html, type Html } from './html.ts';
import type { ConsoleContext } from './index.ts';
import { page, requireAcl, sendRefusal } from './layout.ts';
import { isOperationAnswer, operationIdOf, operationStatus, operationStatusRoute } from './operation-view.ts';

export const PURGE_SCREEN = '/assets/purge';
const TITLE = 'Asset purge';
const purgeForm = z.object({ ids: field, guild_id: field, reason: field, confirm: field });
type PurgeForm = z.infer<typeof purgeForm>;

/** What the form asks to purge: ids, or a whole guild. */
type Target = { ids: string[] } | { guild_id: string };

function targetOf(form: PurgeForm): Target | string {
  const ids = valuesOf(form.ids ?? '');
  const guildId = form.guild_id?.trim() ?? '';
  if (ids.length > 0 === (guildId !== '')) return 'Give either asset ids or a guild id, not both.';
  return guildId !== '' ? { guild_id: guildId } : { ids };
}

function formPage(ctx: ConsoleContext, res: Response, form: Partial<PurgeForm>, error: string | null = null): string {
  return page(
    { base: ctx.base, title: TITLE, principal: adminPrincipal(res), current: PURGE_SCREEN, error },
    html`<p>Purge emoji and sticker assets by id, or every asset of a guild. The next page says what will go and asks for a reason.</p>
<form method="post" action="${ctx.base}${PURGE_SCREEN}">
<label for="purge-ids">Asset ids (one a line, or separated by commas)</label>
<textarea id="purge-ids" name="ids" rows="6">${form.ids ?? ''}</textarea>
<p>or</p>
<label for="purge-guild">Every asset of the guild with id</label>
<input type="text" id="purge-guild" name="guild_id" inputmode="numeric" value="${form.guild_id ?? ''}">
<p><button type="submit">Review the purge</button></p>
</form>`,
  );
}

function confirmPage(ctx: ConsoleContext, res: Response, target: Target, error: string | null = null): string {
  const what =
    'guild_id' in target
      ? html`<p>Every emoji, sticker, icon, banner and webhook avatar of guild <code>${target.guild_id}</code> will be deleted.</p>`
      : html`<p>${target.ids.length === 1 ? 'This asset' : `These ${target.ids.length} assets`} will be deleted:</p>
<ul>${target.ids.map((id) => html`<li><code>${id}</code></li>`)}</ul>`;
  const hidden =
    'guild_id' in target
      ? html`<input type="hidden" name="guild_id" value="${target.guild_id}">`
      : html`<input type="hidden" name="ids" value="${target.ids.join('\n')}">`;
  return page(
    {
      base: ctx.base,
      title:
        'guild_id' in target
          ? 'Purge every asset of this guild?'
          : `Purge ${target.ids.length === 1 ? 'this asset' : `these ${target.ids.length} assets`}?`,
      principal: adminPrincipal(res),
      current: PURGE_SCREEN,
      error,
    },
    html`${what}
<form method="post" action="${ctx.base}${PURGE_SCREEN}">
${hidden}
<label for="purge-reason">Reason (recorded in the audit log)</label>
<input type="text" id="purge-reason" name="reason" maxlength="512" required>
<input type="hidden" name="confirm" value="purge">
<p><button type="submit" class="danger">Purge</button> <a href="${ctx.base}${PURGE_SCREEN}">Cancel</a></p>
</form>`,
  );
}

/** Per item, as the API reports it: purged, not found, or failed with the worker's reason. */
function outcomeTable(result: AssetPurgeResult): Html {
  const rows = [
    ...result.processed.map(
      (item) =>
        html`<tr><td><code>${item.id}</code></td><td>${item.asset_type}</td><td>${item.guild_id === null ? '—' : html`<code>${item.guild_id}</code>`}</td><td>${item.found_in_db ? 'Purged' : 'Not found'}</td></tr>`,
    ),
    ...result.errors.map(
      (item) => html`<tr><td><code>${item.id}</code></td><td>—</td><td>—</td><td>Failed: ${item.error}</td></tr>`,
    ),
  ];
  const purged = result.processed.filter((item) => item.found_in_db).length;
  return html`<p>${purged} purged, ${result.processed.length - purged} not found, ${result.errors.length} failed; ${result.deleted_objects} stored objects deleted.</p>
${rows.length === 0 ? html`<p>The purge found nothing to delete.</p>` : html`<table class="outcomes"><caption>Outcome per item</caption><thead><tr><th scope="col">Id</th><th scope="col">Type</th><th scope="col">Guild</th><th scope="col">Outcome</th></tr></thead><tbody>${rows}</tbody></table>`}`;
}

function resultPage(ctx: ConsoleContext, res: Response, body: unknown, id: string | null): string {
  const pageUrl = `${ctx.base}/assets/purges/${id}`;
  const status = isOperationAnswer(body)
    ? operationStatus(body, pageUrl, `${pageUrl}/status`)
    : html`<p>Status: <strong role="status">Finished</strong></p>`;
  const finished = !isOperationAnswer(body) || body.status === 'completed';
  return page(
    {
      base: ctx.base,
      title: id === null ? 'Asset purge' : `Asset purge ${id}`,
      principal: adminPrincipal(res),
      current: PURGE_SCREEN,
    },
    html`${status}${finished ? outcomeTable(body as AssetPurgeResult) : ''}
<p><a href="${ctx.base}${PURGE_SCREEN}">Purge more assets</a></p>`,
  );
}

/**
 * The asset purge screen (`asset:purge`): the form, a confirmation naming the ids or the guild
 * and asking for the reason, then the API's operation: its status (polled by the page's script)
 * and, once finished, the outcome per item as the API reports it.
 */
export function purgeScreens(ctx: ConsoleContext): Router {
  const router = Router();
  router.use(['/assets/purge', '/assets/purges'], requireAcl(ACL.assetPurge));
  router.get(PURGE_SCREEN, (_req, res) => {
    res.type('html').send(formPage(ctx, res, {}));
  });

  router.post(PURGE_SCREEN, async (req, res) => {
    const form = parseForm(purgeForm, req);
    const value: PurgeForm = form.ok ? form.value : {};
    const target = form.ok ? targetOf(value) : 'The form could not be read.';
    if (typeof target === 'string') {
      res
        .status(400)
        .type('html')
        .send(formPage(ctx, res, value, target));
      return;
    }
    // Nothing is sent to the API before the confirmation page's button, which asks for a reason.
    if (value.confirm !== 'purge' || !value.reason?.trim()) {
      const error = value.confirm === 'purge' ? 'Give a reason.' : null;
      res
        .status(error === null ? 200 : 400)
        .type('html')
        .send(confirmPage(ctx, res, target, error));
      return;
    }
    const answer = await ctx.api(req, res, {
      method: 'POST',
      path: '/v1/admin/assets/purge',
      body: target,
      reason: value.reason.trim(),
    });
    if (answer.status === 202) {
      const id = (answer.body as { purge_id: string }).purge_id;
      return res.redirect(303, `${ctx.base}/assets/purges/${id}`);
    }
    // Finished within the API's wait: the answer is the outcome itself (it names no id).
    if (answer.status === 200) return res.type('html').send(resultPage(ctx, res, answer.body, null));
    sendRefusal(
      res,
      { base: ctx.base, title: TITLE, current: PURGE_SCREEN },
      answer,
      html`<p><a href="${ctx.base}${PURGE_SCREEN}">Back to the purge form</a></p>`,
    );
  });

  router.get('/assets/purges/:id', async (req, res) => {
    const id = operationIdOf(req);
    if (id === null) throw new ApiError('UNKNOWN_ASSET_PURGE');
    const answer = await ctx.api(req, res, { method: 'GET', path: `/v1/admin/assets/purges/${id}` });
    if (answer.status !== 200)
      return sendRefusal(
        res,
        { base: ctx.base, title: TITLE, current: PURGE_SCREEN },
        answer,
        html`<p><a href="${ctx.base}${PURGE_SCREEN}">Back to the purge form</a></p>`,
      );
    res.type('html').send(resultPage(ctx, res, answer.body, id));
  });

  router.use(operationStatusRoute(ctx, '/assets/purges', (id) => `/v1/admin/assets/purges/${id}`));
  return router;
}
