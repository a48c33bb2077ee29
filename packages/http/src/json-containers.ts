import type { ValidationErrorItem } from '@switchboard/contracts';
import { ApiError } from './api-error.ts';

/**
 * Most objects and arrays a JSON document may hold. Each costs the parser a heap object: 25 MiB
 * of `[{},{},…]` (8.7 million empty objects) takes more heap than a parse thread has, and V8
 * does not always fail such an allocation gracefully: it aborted the whole gateway. Real
 * payloads hold far fewer: GitHub's 7.7 KB example push holds 56, a 25 MB push of that shape
 * some 180,000.
 */
export const MAX_JSON_CONTAINERS = 1_000_000;

/** `[]` and a separator: no text shorter than this can hold more than MAX_JSON_CONTAINERS. */
const SHORTEST_TOO_MANY = 3 * MAX_JSON_CONTAINERS;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;

/**
 * Whether JSON `text` opens more than `max` objects and arrays, counted on the text before it
 * is parsed (brackets inside strings are not counted); stops early.
 */
function opensMoreContainersThan(text: string, max: number): boolean {
  let containers = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === BACKSLASH) i++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if ((code === OPEN_OBJECT || code === OPEN_ARRAY) && ++containers > max) return true;
  }
  return false;
}

/**
 * Throws 400 `INVALID_FORM_BODY` (at `path`, root by default) for JSON text holding more than
 * MAX_JSON_CONTAINERS objects and arrays. Call before JSON.parse; texts too short to hold that
 * many (every body of a few MiB or less) are not scanned at all.
 */
export function assertJsonContainers(text: string, path = 'root'): void {
  if (text.length < SHORTEST_TOO_MANY || !opensMoreContainersThan(text, MAX_JSON_CONTAINERS)) return;
  const error: ValidationErrorItem = {
    path,
    message: `Request body holds more than ${MAX_JSON_CONTAINERS.toLocaleString('en-US')} objects and arrays.`,
    code: 'INVALID_FORMAT',
  };
  throw new ApiError('INVALID_FORM_BODY', { errors: [error] });
}
