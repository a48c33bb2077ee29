import type { AdminSession } from '../admin-session/index.ts';

/** A console session: the dashboard's record plus the admin key, sealed under the session token. */
export interface ConsoleSession extends AdminSession {
  sealedKey: string;
}
