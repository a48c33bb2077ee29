/** The search text as a query: web-search syntax, parsed with the column's 'simple' configuration. */
export const QUERY = "websearch_to_tsquery('simple', $1)";

const MATCHES = `search @@ ${QUERY}`;
const IN_A = `ts_filter(search, '{a}') @@ ${QUERY}`;
const IN_AB = `ts_filter(search, '{a,b}') @@ ${QUERY}`;

/**
 * Relevance (docs/decisions.md#audit-search-at-scale): the best field class the query matches
 * in, using the column's weights. First the entries it matches in the action and target alone
 * (A), then those it needs the reason for too (A and B), then those it needs the metadata for;
 * newest first within a class. Each condition excludes the classes before it, so an entry is in
 * exactly one; the first two are served by their own indexes (migration 0016).
 *
 * Only `-` makes a negation in web-search syntax. Without one, a match within a class is a match
 * of the whole entry, and the whole-entry condition is left out of the first two: the planner
 * would take it for a second, independent filter, underestimate the class and sort all of it
 * instead of walking the date index.
 */
export function relevanceClasses(query: string): string[] {
  const whole = query.includes('-') ? [MATCHES] : [];
  return [
    [...whole, IN_A].join(' AND '),
    [...whole, `NOT ${IN_A}`, IN_AB].join(' AND '),
    [MATCHES, `NOT ${IN_A}`, `NOT ${IN_AB}`].join(' AND '),
  ];
}
