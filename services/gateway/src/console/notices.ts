/**
 * What a form's redirect says happened (`?done=<name>`). A fixed table: the page never echoes
 * text from the URL.
 */
const NOTICES: Record<string, string> = {
  'signed-out': 'You are signed out.',
  'key-revoked': 'The key is revoked: it no longer works anywhere.',
  'ban-added': 'The ban is in force.',
  'ban-removed': 'The ban is removed.',
  'archive-queued': 'The archive is queued: its progress shows below.',
  'job-retried': 'The job is back in its queue: a worker runs it again.',
};

export function noticeOf(query: unknown): string | null {
  const done = (query as Record<string, unknown>)['done'];
  return typeof done === 'string' ? (NOTICES[done] ?? null) : null;
}
