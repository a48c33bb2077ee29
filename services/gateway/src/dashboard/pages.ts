const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char]!);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem}label,input,button{display:block;width:100%;margin:.5rem 0;font-size:1rem}input,button{padding:.5rem;box-sizing:border-box}#error{color:#b00020}</style>
</head>
<body><main>${body}</main></body>
</html>
`;
}

/**
 * The sign-in page: the operator pastes an admin API key, the script (loginScript, a file of
 * its own so the page needs no inline script) posts it as `Authorization: Admin <key>` to the
 * session route, which answers with the session cookie, then opens the board. The key is never
 * stored by the page.
 */
export function loginPage(urls: { session: string; board: string; script: string }): string {
  return page(
    'Queue dashboard: sign in',
    `<h1>Queue dashboard</h1>
<form id="login" data-session-url="${escapeHtml(urls.session)}" data-board-url="${escapeHtml(urls.board)}">
<label for="key">Admin API key (needs jobs:read)</label>
<input id="key" name="key" type="password" autocomplete="off" required>
<button type="submit">Sign in</button>
<p id="error" role="alert"></p>
</form>
<script src="${escapeHtml(urls.script)}"></script>`,
  );
}

export const LOGIN_SCRIPT = `'use strict';
const form = document.getElementById('login');
const error = document.getElementById('error');
form.addEventListener('submit', async (event) => {
  event.preventDefault();
  error.textContent = '';
  const key = form.elements.key.value.trim();
  try {
    const answer = await fetch(form.dataset.sessionUrl, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { Authorization: 'Admin ' + key, 'Content-Type': 'application/json' },
      body: '{}',
    });
    if (answer.ok) {
      location.assign(form.dataset.boardUrl);
      return;
    }
    const body = await answer.json().catch(() => ({}));
    error.textContent = body.message || 'Sign-in failed (HTTP ' + answer.status + ').';
  } catch (failure) {
    error.textContent = 'Sign-in failed: ' + failure.message;
  }
});
`;

/** Sign-out is a POST (a link could be followed by a crawler or a prefetch): this page holds its button. */
export function logoutPage(action: string): string {
  return page(
    'Queue dashboard: sign out',
    `<h1>Sign out of the queue dashboard?</h1>
<form method="post" action="${escapeHtml(action)}"><button type="submit">Sign out</button></form>`,
  );
}
