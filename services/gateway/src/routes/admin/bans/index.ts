import type { AdminHandlers } from '../types.ts';
import type { BanDeps } from './common.ts';
import { ipBanHandlers } from './ip-bans.ts';
import { valueBanHandlers } from './value-bans.ts';

export type { BanDeps } from './common.ts';

/** The twelve ban routes: `/v1/admin/bans/{email,ip,phone}/{add,check,list,remove}` (decisions §4). */
export function banHandlers(deps: BanDeps): AdminHandlers {
  return {
    ...valueBanHandlers('email', deps),
    ...valueBanHandlers('phone', deps),
    ...ipBanHandlers(deps),
  };
}
