import type { GatewayDeps } from '../../../deps.ts';
import type { AdminHandlers } from '../handlers.ts';
import { ipBanHandlers } from './ip-bans.ts';
import { valueBanHandlers } from './value-bans.ts';

/** The twelve ban routes: `/v1/admin/bans/{email,ip,phone}/{add,check,list,remove}` (docs/decisions.md#bans). */
export function banHandlers(deps: GatewayDeps): AdminHandlers {
  return {
    ...valueBanHandlers('email', deps),
    ...valueBanHandlers('phone', deps),
    ...ipBanHandlers(deps),
  };
}
