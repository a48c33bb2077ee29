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
 */
export const RELEVANCE_CLASSES = [
  `${MATCHES} AND ${IN_A}`,
  `${MATCHES} AND NOT ${IN_A} AND ${IN_AB}`,
  `${MATCHES} AND NOT ${IN_A} AND NOT ${IN_AB}`,
] as const;
