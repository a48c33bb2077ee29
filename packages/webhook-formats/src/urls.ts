import { LIMITS } from '@switchboard/contracts';

/**
 * Whether `value` is an absolute http(s) URL within the length limit. Fragments are allowed:
 * code hosts link to comments and reviews with `#fragment` (docs/decisions.md#third-party-payloads).
 */
export function isHttpUrl(value: string): boolean {
  if (value.length > LIMITS.messages.urlMaxLength) return false;
  if (!/^https?:\/\//i.test(value)) return false;
  try {
    return new URL(value).hostname !== '';
  } catch {
    return false;
  }
}

/** Embed images and thumbnails may also reference an attachment of the same message. */
export function isMediaUrl(value: string): boolean {
  if (/^attachment:\/\/[^/\s]+$/.test(value)) return value.length <= LIMITS.messages.urlMaxLength;
  return isHttpUrl(value);
}

/** `value` when it is a usable http(s) URL, otherwise nothing: for URLs taken from payloads. */
export function httpUrlOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' && isHttpUrl(value) ? value : undefined;
}
