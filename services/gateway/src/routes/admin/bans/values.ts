import { z } from 'zod';
import { parseIpNetwork, type IpNetwork } from '@switchboard/ip';

// U+202E (right-to-left override) and control characters, stripped before anything else as
// Fluxer does, so a pasted value with a stray tab or line feed still validates.
const STRIPPED = /[\u202e\p{Cc}]/gu;

export function normalizeText(raw: string): string {
  return raw.replace(STRIPPED, '').trim();
}

const EMAIL_MAX_LENGTH = 254;
/** The local part may only use letters, digits and the RFC 5322 atext symbols (docs/decisions.md#fluxer-ban-values). */
const EMAIL_LOCAL_PART = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+$/;
const emailSyntax = z.email();
/** Strict E.164: a plus, no leading zero, at most 15 digits; nothing is reformatted. */
const E164 = /^\+[1-9]\d{1,14}$/;
/** ip_bans.display holds the text as written. */
const IP_TEXT_MAX_LENGTH = 64;

/** The stored form of an email (lower-cased), or null when it is not a valid address. */
export function canonicalEmail(text: string): string | null {
  if (text.length < 1 || text.length > EMAIL_MAX_LENGTH) return null;
  if (!emailSyntax.safeParse(text).success) return null;
  const local = text.slice(0, text.lastIndexOf('@'));
  return EMAIL_LOCAL_PART.test(local) ? text.toLowerCase() : null;
}

export function canonicalPhone(text: string): string | null {
  return E164.test(text) ? text : null;
}

/** An IP address or CIDR range as parsed (canonical) and as written (for display). */
export interface IpValue {
  network: IpNetwork;
  display: string;
}

export function ipValue(text: string): IpValue | null {
  if (text.length > IP_TEXT_MAX_LENGTH) return null;
  const network = parseIpNetwork(text);
  return network ? { network, display: text } : null;
}

/**
 * A string field normalised then checked by `canonical`; a failure is a 400 item with `code`
 * at the field's path (e.g. `emails.3`).
 */
function valueSchema<T>(canonical: (text: string) => T | null, code: string, message: string) {
  return z.string().transform((raw, ctx): T => {
    const value = canonical(normalizeText(raw));
    if (value === null) {
      ctx.addIssue({ code: 'custom', message, params: { code } });
      return z.NEVER;
    }
    return value;
  });
}

export const emailSchema = valueSchema(canonicalEmail, 'INVALID_EMAIL_FORMAT', 'Invalid email address.');
export const phoneSchema = valueSchema(
  canonicalPhone,
  'INVALID_PHONE_FORMAT',
  'Invalid phone number: expected E.164, e.g. +15551234567.',
);
export const ipSchema = valueSchema(ipValue, 'INVALID_IP_ADDRESS', 'Invalid IP address or CIDR range.');
