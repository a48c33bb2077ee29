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
const POLL_MS = 1500;
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

/**
 * Polls each live element's status URL (`urlOf`) every POLL_MS, hands each answer to
 * `show`, and drops an element once its status is neither queued nor running, or its URL fails.
 */
function pollWhileLive(live, urlOf, show) {
  async function poll() {
    for (const element of live) {
      try {
        const answer = await fetch(urlOf(element), { headers: { Accept: 'application/json' } });
        if (!answer.ok) {
          live.delete(element);
          continue;
        }
        const view = await answer.json();
        show(element, view);
        if (view.status !== 'queued' && view.status !== 'running') live.delete(element);
      } catch {
        // A failed poll is retried on the next round; the refresh link still works.
      }
    }
    if (live.size > 0) setTimeout(poll, POLL_MS);
  }
  if (live.size > 0) setTimeout(poll, POLL_MS);
}
pollWhileLive(liveRows, (row) => row.dataset.statusUrl, fill);

// An operation still queued or running (data-operation-status-url) is polled the same way; once
// it is done the page reloads, and the server renders its outcome.
pollWhileLive(
  new Set(document.querySelectorAll('[data-operation-status-url]')),
  (marker) => marker.dataset.operationStatusUrl,
  (marker, view) => {
    marker.textContent = view.status_label;
    if (view.status !== 'queued' && view.status !== 'running') window.location.reload();
  },
);

// Confirmations in a modal <dialog>: a link to a confirmation page (a[data-confirm]), or a form
// whose answer is one (form[data-confirm], the review step), opens that page's heading and form
// in a dialog over the current page instead of leaving it. The dialog's form posts exactly as the
// page's would; Cancel (data-dismiss) and Escape close it and give the focus back. Whatever goes
// wrong, the browser falls back to the page itself, which is also all there is without script.
function showConfirmation(pageHtml, opener) {
  const main = new DOMParser().parseFromString(pageHtml, 'text/html').querySelector('main');
  const heading = main?.querySelector('h1');
  if (!main?.querySelector('form[method="post"]') || !heading) return false;
  const dialog = document.createElement('dialog');
  dialog.className = 'confirm';
  const title = document.createElement('h2');
  title.id = 'confirm-title';
  title.textContent = heading.textContent;
  dialog.setAttribute('aria-labelledby', title.id);
  dialog.append(title);
  for (const node of main.childNodes) {
    if (node !== heading) dialog.append(document.importNode(node, true));
  }
  // Ids stay unique in the document: one the page already uses is renamed, with its labels.
  for (const element of dialog.querySelectorAll('[id]')) {
    if (element === title || !document.getElementById(element.id)) continue;
    const renamed = `dialog-${element.id}`;
    for (const label of dialog.querySelectorAll(`label[for="${CSS.escape(element.id)}"]`)) label.htmlFor = renamed;
    element.id = renamed;
  }
  for (const dismiss of dialog.querySelectorAll('[data-dismiss]')) {
    dismiss.addEventListener('click', (event) => {
      event.preventDefault();
      dialog.close();
    });
  }
  dialog.addEventListener('close', () => {
    dialog.remove();
    opener.focus();
  });
  document.body.append(dialog);
  dialog.showModal();
  return true;
}

for (const link of document.querySelectorAll('a[data-confirm]')) {
  link.addEventListener('click', async (event) => {
    // A new tab or window gets the page, as without script.
    if (event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    try {
      const answer = await fetch(link.href, { headers: { Accept: 'text/html' } });
      if (answer.ok && showConfirmation(await answer.text(), link)) return;
    } catch {
      // The page itself, below.
    }
    window.location.assign(link.href);
  });
}

for (const form of document.querySelectorAll('form[data-confirm]')) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const opener = event.submitter ?? form;
    try {
      // The review step changes nothing: if its answer is no confirmation, the form is sent again.
      const answer = await fetch(form.action, { method: 'POST', body: new URLSearchParams(new FormData(form)) });
      if (answer.ok && !answer.redirected && showConfirmation(await answer.text(), opener)) return;
    } catch {
      // The page itself, below.
    }
    form.submit();
  });
}
