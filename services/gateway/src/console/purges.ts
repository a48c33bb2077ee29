// The asset purge screen: emoji and sticker ids or a whole guild, then the outcome per item.
import type { Router } from 'express';
import { z } from 'zod';
import type { AssetPurgeResult } from '@switchboard/contracts';
import { valuesOf } from './ban-kinds.ts';
import { field } from './form.ts';
import { html, type Html } from './html.ts';
import type { ConsoleContext } from './index.ts';
import { operationScreens } from './operation-screens.ts';

const purgeForm = z.object({ ids: field, guild_id: field, reason: field, confirm: field });
type PurgeForm = z.infer<typeof purgeForm>;

/** What the form asks to purge: ids, or a whole guild (the API's two request shapes). */
type Target = { ids: string[] } | { guild_id: string };

function targetOf(form: PurgeForm): Target | string {
  const ids = valuesOf(form.ids ?? '');
  const guildId = form.guild_id?.trim() ?? '';
  if (ids.length > 0 === (guildId !== '')) return 'Give either asset ids or a guild id, not both.';
  return guildId !== '' ? { guild_id: guildId } : { ids };
}

function fields(form: Partial<PurgeForm>): Html {
  return html`<p>Purge emoji and sticker assets by id, or every asset of a guild. The next page says what will go and asks for a reason.</p>
<label for="purge-ids">Asset ids (one a line, or separated by commas)</label>
<textarea id="purge-ids" name="ids" rows="6">${form.ids ?? ''}</textarea>
<p>or</p>
<label for="purge-guild">Every asset of the guild with id</label>
<input type="text" id="purge-guild" name="guild_id" inputmode="numeric" value="${form.guild_id ?? ''}">
<p><button type="submit">Review the purge</button></p>`;
}

function confirmation(target: Target) {
  if ('guild_id' in target)
    return {
      title: 'Purge every asset of this guild?',
      names: html`<p>Every emoji, sticker, icon, banner and webhook avatar of guild <code>${target.guild_id}</code> will be deleted.</p>`,
      hidden: html`<input type="hidden" name="guild_id" value="${target.guild_id}">`,
      button: 'Purge',
    };
  const count = target.ids.length;
  return {
    title: `Purge ${count === 1 ? 'this asset' : `these ${count} assets`}?`,
    names: html`<ul>${target.ids.map((id) => html`<li><code>${id}</code></li>`)}</ul>`,
    hidden: html`<input type="hidden" name="ids" value="${target.ids.join(',')}">`,
    button: 'Purge',
  };
}

/** Per item, as the API reports it: purged, not found, or failed with the worker's reason. */
function outcome(body: unknown): Html {
  const result = body as AssetPurgeResult;
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

/** The asset purge screen (`asset:purge`), at /assets/purge, results at /assets/purges/<id>. */
export function purgeScreens(ctx: ConsoleContext): Router {
  return operationScreens(ctx, {
    screen: '/assets/purge',
    operations: '/assets/purges',
    title: 'Asset purge',
    form: purgeForm,
    confirmValue: 'purge',
    idPrefix: 'purge',
    targetOf,
    fields,
    confirmation,
    api: { start: '/v1/admin/assets/purge', status: (id) => `/v1/admin/assets/purges/${id}`, idField: 'purge_id' },
    outcome,
    again: 'Purge more assets',
  });
}
