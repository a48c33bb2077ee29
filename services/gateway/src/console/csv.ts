/** Characters that make a spreadsheet read a cell as a formula (CSV injection). */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell (RFC 4180): a cell that a spreadsheet would run as a formula gets a leading `'`,
 * and a cell holding a quote, comma or line break is quoted with its quotes doubled.
 */
export function csvCell(value: string | null): string {
  if (value === null) return '';
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** One CSV record, CRLF-terminated as RFC 4180 says. */
export function csvRow(values: ReadonlyArray<string | null>): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
