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

/** Whether a parsed JSON value nests objects or arrays deeper than `maxDepth`; iterative, stops early. */
function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current !== 'object') continue;
    if (depth >= maxDepth) return true;
    const children = Array.isArray(current) ? current : Object.values(current);
    for (const child of children) {
      if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** Throws 400 `INVALID_FORM_BODY` for a body nested deeper than MAX_JSON_DEPTH. */
export function assertJsonDepth(value: unknown): void {
  if (nestsDeeperThan(value, MAX_JSON_DEPTH)) throw new ApiError('INVALID_FORM_BODY', { errors: [TOO_DEEP] });
}
