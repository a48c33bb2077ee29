import type { z } from 'zod';
import type { ValidationErrorItem } from '@switchboard/contracts';

/** Item codes for zod's own issue kinds; custom issues carry theirs in `params.code`. */
const ITEM_CODES: Record<string, string> = {
  invalid_type: 'INVALID_TYPE',
  too_small: 'TOO_SMALL',
  too_big: 'TOO_BIG',
  invalid_value: 'INVALID_VALUE',
  not_multiple_of: 'INVALID_VALUE',
};

/** Fluxer's catch-all item code (docs/decisions.md#fluxer-error-codes-and-texts). */
const DEFAULT_ITEM_CODE = 'INVALID_FORMAT';

function itemCode(issue: z.core.$ZodIssue): string {
  if (issue.code === 'custom' && typeof issue.params?.['code'] === 'string') return issue.params['code'];
  return ITEM_CODES[issue.code] ?? DEFAULT_ITEM_CODE;
}

export function issuePath(path: readonly PropertyKey[]): string {
  return path.length === 0 ? 'root' : path.map(String).join('.');
}

/** zod issues as the error body's `errors` items, one per (path, code) pair as Fluxer does. */
export function issuesToItems(issues: readonly z.core.$ZodIssue[]): ValidationErrorItem[] {
  const seen = new Set<string>();
  const items: ValidationErrorItem[] = [];
  for (const issue of issues) {
    const item = { path: issuePath(issue.path), message: issue.message, code: itemCode(issue) };
    const key = `${item.path}\u0000${item.code}`;
    if (seen.has(key)) continue;
    seen.add(key);
    items.push(item);
  }
  return items;
}
