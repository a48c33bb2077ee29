import type { ValidationErrorItem } from '@switchboard/contracts';
import { ApiError } from './api-error.ts';

/**
 * Most objects and arrays a JSON document may hold. Each costs the parser a heap object: 25 MiB
 * of `[{},{},…]` (8.7 million empty objects) takes more heap than a parse thread has, and V8
 * does not always fail such an allocation gracefully: it aborted the whole gateway. Real
 * payloads hold far fewer: GitHub's 7.7 KB example push holds 21, a 25 MB push of that shape
 * about 70,000.
 */
export const MAX_JSON_CONTAINERS = 1_000_000;

/**
 * Most values (array elements and object members) a JSON document may hold. 25 MiB of
 * `[1,1,…]` is 13 million, a 100 MB array once parsed; a parse thread holding a few of those
 * between collections took a flood of them close to the gateway's memory bound
 * (packages/bench/README.md#execution-bodies-under-the-body-flood). GitHub's example push holds
 * 179 in 7.7 KB (a 25 MB push of that shape, about 600,000).
 */
export const MAX_JSON_VALUES = 4_000_000;

/** No text shorter than this can go past either limit (`[]` and `1` take a separator each). */
const SHORTEST_OVER_A_LIMIT = Math.min(3 * MAX_JSON_CONTAINERS, 2 * MAX_JSON_VALUES);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const COMMA = 0x2c;

/**
 * What JSON `text` holds past a limit, counted on the text before it is parsed (brackets and
 * commas inside strings are not counted; a container's first value is counted with the
 * container, every further one by its comma): null within both; stops early.
 */
function limitExceeded(text: string): string | null {
  let containers = 0;
  let values = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === BACKSLASH) i++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === COMMA) {
      if (++values > MAX_JSON_VALUES) return `more than ${MAX_JSON_VALUES.toLocaleString('en-US')} values`;
    } else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      if (++containers > MAX_JSON_CONTAINERS)
        return `more than ${MAX_JSON_CONTAINERS.toLocaleString('en-US')} objects and arrays`;
      if (++values > MAX_JSON_VALUES) return `more than ${MAX_JSON_VALUES.toLocaleString('en-US')} values`;
    }
  }
  return null;
}

/**
 * Throws 400 `INVALID_FORM_BODY` (at `path`, root by default) for JSON text holding more than
 * MAX_JSON_CONTAINERS objects and arrays or MAX_JSON_VALUES values. Call before JSON.parse;
 * texts too short to go past either (every body of a few MiB or less) are not scanned at all.
 */
export function assertJsonCounts(text: string, path = 'root'): void {
  if (text.length < SHORTEST_OVER_A_LIMIT) return;
  const exceeded = limitExceeded(text);
  if (exceeded === null) return;
  const error: ValidationErrorItem = { path, message: `Request body holds ${exceeded}.`, code: 'INVALID_FORMAT' };
  throw new ApiError('INVALID_FORM_BODY', { errors: [error] });
}
