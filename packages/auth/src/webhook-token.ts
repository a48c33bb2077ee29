import { randomBase62 } from './random.ts';

export const WEBHOOK_TOKEN_LENGTH = 64;
// Any url-safe 64-character string is accepted (the column allows it); we only mint base62.
const WEBHOOK_TOKEN = /^[A-Za-z0-9_-]{64}$/;

/** 64 url-safe characters (base62, about 381 bits), as Fluxer's webhook tokens. */
export function generateWebhookToken(): string {
  return randomBase62(WEBHOOK_TOKEN_LENGTH);
}

/** Cheap shape check before any lookup; the token is still compared in constant time. */
export function isWebhookTokenShaped(raw: string): boolean {
  return WEBHOOK_TOKEN.test(raw);
}
