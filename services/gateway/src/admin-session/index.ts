// Browser sessions for the gateway's admin tools (the queue dashboard, the console): an admin
// key exchanged once for a random token in an HttpOnly, SameSite=Strict cookie, its record in
// Redis, the key re-read on every request, and an Origin check on every change
// (docs/decisions.md#dashboard-session, #console).
export { sessionAuthentication } from './authenticate.ts';
export { publicPath, sessionCookie, sessionTokenFrom, type SessionCookie } from './cookie.ts';
export { isSafeMethod, sameOriginChanges } from './same-origin.ts';
export { adminSessions, sessionSeconds, type AdminSession, type AdminSessions } from './sessions.ts';
