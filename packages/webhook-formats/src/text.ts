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
  return Number.isInteger(codePoint) && codePoint > 0 && codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : original;
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
 * Fluxer's text normalisation for names and content (reference §2.4, §2.9): the right-to-left
 * override and form feeds are removed (they are used to spoof names), then the value trimmed.
 */
export function normaliseText(value: string): string {
  return value.replace(/[\u202e\f]/g, '').trim();
}

export function firstLine(text: string): string {
  const newline = text.search(/\r?\n/);
  return newline === -1 ? text : text.slice(0, newline);
}
