export { userTokenFromHeader } from './header.ts';
export { findUserPrincipal, requireUser, resolveUser, userPrincipal, type UserPrincipal } from './principal.ts';
export { TOKEN_SEEN_INTERVAL_MS, tokenUseRecorder, type TokenUseRecorder } from './token-use.ts';
export { userAuth, type UserAuth } from './chain.ts';
