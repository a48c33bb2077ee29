/** Text helpers shared by the transformers. Lengths are UTF-16 code units, as zod counts them. */

export const ELLIPSIS = '...';

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** The first `length` code units, one less when that would split a surrogate pair. */
function safeSlice(text: string, length: number): string {
  if (length <= 0) return '';
  const end = isHighSurrogate(text.charCodeAt(length - 1)) ? length - 1 : length;
  return text.slice(0, end);
}

/**
 * Cuts `text` to at most `max` characters, the ellipsis counted inside the limit (as Fluxer's
 * parseString does). Deterministic, and never leaves half a surrogate pair.
 */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= ELLIPSIS.length) return safeSlice(text, max);
  return safeSlice(text, max - ELLIPSIS.length) + ELLIPSIS;
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

function decodeCodePoint(codePoint: number, original: string): string {
  return Number.isInteger(codePoint) && codePoint > 0 && codePoint <= 0x10ffff
    ? String.fromCodePoint(codePoint)
    : original;
}

/** Decodes the HTML entities code hosts put in titles and bodies (`&amp;`, `&#39;`, `&#x1F600;`). */
export function decodeHtmlEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (match, entity: string) => {
    if (entity[0] === '#') {
      const hex = entity[1] === 'x' || entity[1] === 'X';
      return decodeCodePoint(Number.parseInt(entity.slice(hex ? 2 : 1), hex ? 16 : 10), match);
    }
    return NAMED_ENTITIES[entity.toLowerCase()] ?? match;
  });
}

/** Fluxer's parseString: decode entities, trim, truncate with the ellipsis inside `max`. */
export function displayText(value: string, max: number): string {
  return truncate(decodeHtmlEntities(value).trim(), max);
}

/**
 * Fluxer's text normalisation for names and content
 * (docs/decisions.md#fluxer-webhook-names-and-text-normalisation): the right-to-left override and
 * form feeds are removed (they are used to spoof names), then the value trimmed.
 */
export function normaliseText(value: string): string {
  return value.replace(/[\u202e\f]/g, '').trim();
}

export function firstLine(text: string): string {
  const newline = text.search(/\r?\n/);
  return newline === -1 ? text : text.slice(0, newline);
}

/**
 * Whether PostgreSQL can store the text: `text` columns refuse NUL (U+0000), and `jsonb` (embeds)
 * refuses NUL and unpaired surrogates (`\ud800` alone, which JSON may carry and JavaScript
 * strings may hold). A message holding either would be accepted and then never stored.
 */
export function isStorableText(value: string): boolean {
  return !value.includes('\u0000') && value.isWellFormed();
}

/** The text with NUL removed and each unpaired surrogate replaced by U+FFFD. */
export function storableText(value: string): string {
  return value.replaceAll('\u0000', '').toWellFormed();
}

/** Whether every string of a JSON-like value, keys included, is storable: nothing to copy. */
function allStorable(value: unknown): boolean {
  if (typeof value === 'string') return isStorableText(value);
  if (Array.isArray(value)) return value.every(allStorable);
  if (value === null || typeof value !== 'object') return true;
  for (const key in value) {
    if (!isStorableText(key) || !allStorable((value as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/**
 * Every string of a JSON-like value made storable (storableText), keys included; other values
 * are kept. For messages generated from third-party payloads, which must post whatever they hold.
 * A value that is storable already (nearly every message) is returned as it is, not copied.
 */
export function storableStrings<T>(value: T): T {
  return allStorable(value) ? value : storableCopy(value);
}

function storableCopy<T>(value: T): T {
  if (typeof value === 'string') return storableText(value) as T;
  if (Array.isArray(value)) return value.map((element: unknown) => storableCopy(element)) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, field]) => [storableText(key), storableCopy(field)])) as T;
}
