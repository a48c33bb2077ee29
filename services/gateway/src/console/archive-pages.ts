// The archive screen's markup: the trigger form, the filter form and the table.
import { ARCHIVE_STATUSES, type ArchiveResponse, type ArchiveSubjectType } from '@switchboard/contracts';
import { archivePath, archiveView, LIVE_STATUSES, statusLabel } from './archive-view.ts';
import { html, timeCell, type Html } from './html.ts';
import { reasonField } from './reason-field.ts';

export interface ArchiveFilter {
  subject_type: ArchiveSubjectType | 'all';
  subject_id?: string | undefined;
  status?: (typeof ARCHIVE_STATUSES)[number] | undefined;
  mine: boolean;
  requested_by?: string | undefined;
}

const SUBJECT_LABELS: Record<ArchiveSubjectType, string> = { user: 'User', guild: 'Guild' };

export function triggerForm(
  screen: string,
  types: readonly ArchiveSubjectType[],
  values: Record<string, string>,
): Html {
  const options = types.map(
    (type) =>
      html`<option value="${type}"${values['subject_type'] === type ? html` selected` : ''}>${SUBJECT_LABELS[type]}</option>`,
  );
  return html`<form method="post" action="${screen}/trigger">
<label for="trigger-type">Export a</label>
<select id="trigger-type" name="subject_type">${options}</select>
<label for="trigger-id">Its id</label>
<input type="text" id="trigger-id" name="subject_id" inputmode="numeric" required value="${values['subject_id'] ?? ''}">
${reasonField({ id: 'trigger-reason', required: true, value: values['reason'] })}
<p><button type="submit">Start the export</button></p>
</form>`;
}

export function filterForm(
  screen: string,
  filter: ArchiveFilter,
  types: ReadonlyArray<ArchiveSubjectType | 'all'>,
): Html {
  const typeOptions = types.map(
    (type) =>
      html`<option value="${type}"${filter.subject_type === type ? html` selected` : ''}>${type === 'all' ? 'Users and guilds' : `${SUBJECT_LABELS[type]}s`}</option>`,
  );
  const statusOptions = [html`<option value="">Any status</option>`].concat(
    ARCHIVE_STATUSES.map(
      (status) =>
        html`<option value="${status}"${filter.status === status ? html` selected` : ''}>${statusLabel(status)}</option>`,
    ),
  );
  return html`<form method="get" action="${screen}" role="search" class="filters">
<div><label for="subject_type">Subjects</label><select id="subject_type" name="subject_type">${typeOptions}</select></div>
<div><label for="subject_id">Subject id</label><input type="text" id="subject_id" name="subject_id" inputmode="numeric" value="${filter.subject_id ?? ''}"></div>
<div><label for="status">Status</label><select id="status" name="status">${statusOptions}</select></div>
<div><label for="requested_by">Requested by (admin id)</label><input type="text" id="requested_by" name="requested_by" inputmode="numeric" value="${filter.requested_by ?? ''}"></div>
<div class="check"><input type="checkbox" id="mine" name="mine" value="on"${filter.mine ? html` checked` : ''}><label for="mine">Only archives I requested</label></div>
<p><button type="submit">Show archives</button> <a href="${screen}">Clear the filter</a></p>
</form>`;
}

function row(base: string, archive: ArchiveResponse, adminUserId: string): Html {
  const view = archiveView(base, archive);
  const live = LIVE_STATUSES.has(archive.status) ? html` data-status-url="${archivePath(base, archive)}/status"` : '';
  const download =
    view.download_url === null
      ? html``
      : html`<a href="${view.download_url}" aria-label="Download archive ${archive.archive_id}">Download</a>`;
  return html`<tr data-archive="${archive.archive_id}"${live}>
<td><code>${archive.archive_id}</code></td>
<td>${SUBJECT_LABELS[archive.subject_type]} <code>${archive.subject_id}</code></td>
<td><code>${archive.requested_by}</code>${archive.requested_by === adminUserId ? ' (you)' : ''}</td>
<td><span data-field="status_label" aria-live="polite" class="status status-${view.status}">${view.status_label}</span></td>
<td><progress max="100" value="${view.progress_percent}" data-field="progress_percent" aria-label="Progress of archive ${archive.archive_id}">${view.progress_percent}%</progress> <span data-field="progress_step">${view.progress_step ?? ''}</span></td>
<td data-field="size">${view.size}</td>
<td>${timeCell(archive.requested_at, '')}</td>
<td>${timeCell(archive.expires_at, '')}</td>
<td data-field="error">${view.error}</td>
<td data-field="download">${download}</td>
</tr>`;
}

export function archiveTable(base: string, archives: ArchiveResponse[], adminUserId: string): Html {
  if (archives.length === 0) return html`<p>No archive matches this filter.</p>`;
  return html`<table class="archives"><caption>Archives, newest first</caption><thead><tr><th scope="col">Archive</th><th scope="col">Subject</th><th scope="col">Requested by</th><th scope="col">Status</th><th scope="col">Progress</th><th scope="col">Size</th><th scope="col">Requested</th><th scope="col">Expires</th><th scope="col">Failure reason</th><th scope="col">Download</th></tr></thead>
<tbody>${archives.map((archive) => row(base, archive, adminUserId))}</tbody></table>`;
}
