// The bulk add screen: a guild and user ids, then the outcome per user.
import type { Router } from 'express';
import { z } from 'zod';
import type { BulkOperationResult } from '@switchboard/contracts';
import { valuesOf } from './ban-kinds.ts';
import { field } from './form.ts';
import { html, type Html } from './html.ts';
import type { ConsoleContext } from './index.ts';
import { operationScreens } from './operation-screens.ts';

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

function fields(form: Partial<BulkForm>): Html {
  return html`<p>Add users to a guild. The next page says who will be added and asks for a reason.</p>
<label for="bulk-guild">Guild id</label>
<input type="text" id="bulk-guild" name="guild_id" inputmode="numeric" required value="${form.guild_id ?? ''}">
<label for="bulk-users">User ids (one a line, or separated by commas)</label>
<textarea id="bulk-users" name="user_ids" rows="6" required>${form.user_ids ?? ''}</textarea>
<p><button type="submit">Review the additions</button></p>`;
}

function confirmation(target: Target) {
  const count = target.user_ids.length;
  return {
    title: `Add ${count === 1 ? 'this user' : `these ${count} users`} to guild ${target.guild_id}?`,
    names: html`<ul>${target.user_ids.map((id) => html`<li><code>${id}</code></li>`)}</ul>`,
    hidden: html`<input type="hidden" name="guild_id" value="${target.guild_id}">
<input type="hidden" name="user_ids" value="${target.user_ids.join(',')}">`,
    button: 'Add them',
  };
}

/** Per user, as the API reports it (an existing member counts as added there). */
function outcome(body: unknown): Html {
  const result = body as BulkOperationResult;
  const rows = [
    ...result.successful.map((id) => html`<tr><td><code>${id}</code></td><td>Added (or already a member)</td></tr>`),
    ...result.failed.map(
      (item) => html`<tr><td><code>${item.id}</code></td><td>Failed: ${FAILURES[item.error] ?? item.error}</td></tr>`,
    ),
  ];
  return html`<p>${result.successful.length} added or already members, ${result.failed.length} failed.</p>
<table class="outcomes"><caption>Outcome per user</caption><thead><tr><th scope="col">User</th><th scope="col">Outcome</th></tr></thead><tbody>${rows}</tbody></table>`;
}

/** The bulk add screen (`bulk:add:guild_members`), at /bulk/add-members, results at /bulk/operations/<id>. */
export function bulkAddScreens(ctx: ConsoleContext): Router {
  return operationScreens(ctx, {
    screen: '/bulk/add-members',
    operations: '/bulk/operations',
    title: 'Bulk add members',
    form: bulkForm,
    confirmValue: 'add',
    idPrefix: 'bulk',
    targetOf,
    fields,
    confirmation,
    api: {
      start: '/v1/admin/bulk/add-guild-members',
      status: (id) => `/v1/admin/bulk/operations/${id}`,
      idField: 'operation_id',
    },
    outcome,
    again: 'Add more members',
  });
}
