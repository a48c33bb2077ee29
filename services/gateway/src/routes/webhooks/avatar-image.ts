import { createHash } from 'node:crypto';
import { LIMITS } from '@switchboard/contracts';

export type AvatarFormat = 'png' | 'jpeg' | 'webp' | 'gif';

/** A decoded, sniffed avatar ready to store. */
export interface AvatarImage {
  bytes: Buffer;
  format: AvatarFormat;
  contentType: string;
  /** What the `avatar` field shows and the object key ends in; `a_…` for GIFs, as Fluxer. */
  hash: string;
}

/** Base64 characters of the largest accepted image (4 per 3 bytes, padded). */
export const AVATAR_MAX_BASE64_CHARS = Math.ceil(LIMITS.webhooks.avatarMaxBytes / 3) * 4;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

export class AvatarError extends Error {}

/**
 * The base64 payload of a data URI or bare base64 string (docs/decisions.md#fluxer-webhook-avatars): everything
 * up to the first comma is dropped, so the declared MIME type is never trusted. It must be
 * canonical base64 (length a multiple of 4, standard alphabet, round-trips exactly).
 */
export function decodeAvatarBase64(input: string): Buffer {
  const comma = input.indexOf(',');
  const base64 = comma === -1 ? input : input.slice(comma + 1);
  if (base64.length === 0) throw new AvatarError('Avatar must not be empty.');
  if (base64.length > AVATAR_MAX_BASE64_CHARS) throw new AvatarError(avatarTooLarge());
  if (base64.length % 4 !== 0 || !BASE64.test(base64)) throw new AvatarError('Avatar must be valid base64.');
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.toString('base64') !== base64) throw new AvatarError('Avatar must be valid base64.');
  if (bytes.length > LIMITS.webhooks.avatarMaxBytes) throw new AvatarError(avatarTooLarge());
  return bytes;
}

function avatarTooLarge(): string {
  return `Avatar must be at most ${LIMITS.webhooks.avatarMaxBytes / (1024 * 1024)} MiB.`;
}

function startsWith(bytes: Buffer, signature: readonly number[], offset = 0): boolean {
  return bytes.length >= offset + signature.length && signature.every((byte, i) => bytes[offset + i] === byte);
}

const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));

/** The real format from the magic bytes, or null for anything else. */
export function sniffImageFormat(bytes: Buffer): AvatarFormat | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, ascii('GIF87a')) || startsWith(bytes, ascii('GIF89a'))) return 'gif';
  if (startsWith(bytes, ascii('RIFF')) && startsWith(bytes, ascii('WEBP'), 8)) return 'webp';
  return null;
}

/**
 * Decodes and sniffs an avatar. The hash is the first 32 hex digits of the image's SHA-256
 * (Fluxer keeps 8 of an MD5; a longer hash never collides between two avatars of one webhook),
 * prefixed `a_` for a GIF as Fluxer does, so clients that read `a_` as "animated" ask for a GIF.
 */
export function parseAvatar(input: string): AvatarImage {
  const bytes = decodeAvatarBase64(input);
  const format = sniffImageFormat(bytes);
  if (format === null) throw new AvatarError('Invalid image format. Supported extensions: jpeg, png, webp, gif');
  const digest = createHash('sha256').update(bytes).digest('hex').slice(0, 32);
  return { bytes, format, contentType: `image/${format}`, hash: format === 'gif' ? `a_${digest}` : digest };
}
