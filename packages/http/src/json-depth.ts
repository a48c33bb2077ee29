import type { ValidationErrorItem } from '@switchboard/contracts';
import { ApiError } from './api-error.ts';

/**
 * Deepest nesting a request body may have. Real payloads stay far below it (GitHub's deepest
 * are about ten levels, Slack blocks and Discord embeds fewer); without a limit a body of
 * `[[[[…` parses fine (V8's JSON.parse does not recurse) and then overflows the stack of
 * every recursive walk after it (validation, logging, job serialisation).
 */
export const MAX_JSON_DEPTH = 64;

const TOO_DEEP: ValidationErrorItem = {
  path: 'root',
  message: `Request body is nested deeper than ${MAX_JSON_DEPTH} levels.`,
  code: 'INVALID_FORMAT',
};

/**
 * Whether a parsed JSON value nests objects or arrays deeper than `maxDepth`; iterative, stops
 * early. Two parallel stacks and `for…in` allocate nothing per object (a [value, depth] pair and
 * an Object.values array each did, at a cost on every JSON body:
 * packages/bench/README.md#http-path). A parsed JSON value has own enumerable keys only, so
 * `for…in` visits exactly what Object.values would.
 */
function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  if (value === null || typeof value !== 'object') return false;
  const objects: object[] = [value];
  const depths: number[] = [0];
  while (objects.length > 0) {
    const current = objects.pop()!;
    const depth = depths.pop()!;
    if (depth >= maxDepth) return true;
    if (Array.isArray(current)) {
      for (let i = 0; i < current.length; i++) {
        const child: unknown = current[i];
        if (child !== null && typeof child === 'object') {
          objects.push(child);
          depths.push(depth + 1);
        }
      }
      continue;
    }
    for (const key in current) {
      const child = (current as Record<string, unknown>)[key];
      if (child !== null && typeof child === 'object') {
        objects.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}

/** Throws 400 `INVALID_FORM_BODY` for a body nested deeper than MAX_JSON_DEPTH. */
export function assertJsonDepth(value: unknown): void {
  if (nestsDeeperThan(value, MAX_JSON_DEPTH)) throw new ApiError('INVALID_FORM_BODY', { errors: [TOO_DEEP] });
}
