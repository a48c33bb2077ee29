// Progressive enhancement only: every form works without this file.

// Copy buttons: `data-copy` names the input whose value is copied; the outcome is said in text.
for (const button of document.querySelectorAll('button[data-copy]')) {
  const source = document.getElementById(button.dataset.copy);
  const status = document.getElementById(button.dataset.copyStatus);
  button.hidden = false;
  button.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(source.value);
      status.textContent = 'Copied to the clipboard.';
    } catch {
      source.select();
      status.textContent = 'Copy failed: the text is selected, press Ctrl+C.';
    }
  });
}

// Expanders: a button with aria-expanded shows or hides the region named by aria-controls.
// Without script every region shows; with it, each starts as its button's aria-expanded says.
for (const button of document.querySelectorAll('button[aria-controls][aria-expanded]')) {
  const region = document.getElementById(button.getAttribute('aria-controls'));
  button.hidden = false;
  region.hidden = button.getAttribute('aria-expanded') !== 'true';
  button.addEventListener('click', () => {
    const expanded = button.getAttribute('aria-expanded') === 'true';
    button.setAttribute('aria-expanded', String(!expanded));
    region.hidden = expanded;
  });
}

// Archive rows still being built (data-status-url) follow their status without a reload: the
// console's status route answers the row's fields as text; polling stops once none is live.
const ARCHIVE_POLL_MS = 1500;
const liveRows = new Set(document.querySelectorAll('tr[data-status-url]'));

function fill(row, view) {
  for (const cell of row.querySelectorAll('[data-field]')) {
    const name = cell.dataset.field;
    if (name === 'progress_percent') {
      cell.value = view.progress_percent;
      cell.textContent = `${view.progress_percent}%`;
    } else if (name === 'download') {
      cell.replaceChildren();
      if (view.download_url) {
        const link = document.createElement('a');
        link.href = view.download_url;
        link.textContent = 'Download';
        link.setAttribute('aria-label', `Download archive ${row.dataset.archive}`);
        cell.append(link);
      }
    } else if (name === 'status_label') {
      cell.textContent = view.status_label;
      cell.className = `status status-${view.status}`;
    } else if (name === 'size') {
      cell.textContent = view.size;
    } else {
      cell.textContent = view[name] ?? '';
    }
  }
}

async function pollArchives() {
  for (const row of liveRows) {
    try {
      const answer = await fetch(row.dataset.statusUrl, { headers: { Accept: 'application/json' } });
      if (!answer.ok) {
        liveRows.delete(row);
        continue;
      }
      const view = await answer.json();
      fill(row, view);
      if (view.status !== 'queued' && view.status !== 'running') liveRows.delete(row);
    } catch {
      // A failed poll is retried on the next round; the refresh link still works.
    }
  }
  if (liveRows.size > 0) setTimeout(pollArchives, ARCHIVE_POLL_MS);
}
if (liveRows.size > 0) setTimeout(pollArchives, ARCHIVE_POLL_MS);

// An operation still queued or running (data-operation-status-url) is polled the same way; once
// it is done the page reloads, and the server renders its outcome.
const liveOperations = new Set(document.querySelectorAll('[data-operation-status-url]'));

async function pollOperations() {
  for (const marker of liveOperations) {
    try {
      const answer = await fetch(marker.dataset.operationStatusUrl, { headers: { Accept: 'application/json' } });
      if (!answer.ok) {
        liveOperations.delete(marker);
        continue;
      }
      const view = await answer.json();
      marker.textContent = view.status_label;
      if (view.status !== 'queued' && view.status !== 'running') {
        window.location.reload();
        return;
      }
    } catch {
      // A failed poll is retried on the next round; the refresh link still works.
    }
  }
  if (liveOperations.size > 0) setTimeout(pollOperations, ARCHIVE_POLL_MS);
}
if (liveOperations.size > 0) setTimeout(pollOperations, ARCHIVE_POLL_MS);
