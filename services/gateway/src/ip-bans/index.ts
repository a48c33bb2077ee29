export type { IpBanDelta, IpBanEntry } from './entry.ts';
export { ipBanChannel, ipBanSequenceKey } from './channel.ts';
export { LiveIpBanIndex } from './live-index.ts';
export { loadIpBans } from './loader.ts';
export { BAN_REMOVAL_PATHS, ipBanDeferredCheck, ipBanEnforcement, type IpBanEnforcementOptions } from './middleware.ts';
export { createIpBans, type IpBans, type IpBansOptions } from './sync.ts';
