/**
 * What a person sees of a result: aligned tables, headed by upper-case column names. Scripts
 * pass `--json` and get the result itself.
 */
export type Rendered =
  /** Rows under headers, each column as wide as its widest cell. */
  | { kind: 'table'; rows: ReadonlyArray<object>; columns?: readonly string[]; empty?: string }
  /** One record as FIELD / VALUE rows. */
  | { kind: 'record'; record: Record<string, unknown> }
  /** Several parts, one after another, separated by a blank line. */
  | { kind: 'sections'; sections: readonly Rendered[] }
  | { kind: 'text'; text: string };

export const table = (rows: ReadonlyArray<object>, columns?: readonly string[], empty = '(none)'): Rendered => ({
  kind: 'table',
  rows,
  ...(columns ? { columns } : {}),
  empty,
});

export const record = (value: Record<string, unknown>): Rendered => ({ kind: 'record', record: value });

/** A cell: text as it is, null as `-`, objects as compact JSON. */
function cell(value: unknown): string {
  if (value === null || value === undefined) return '-';
  if (typeof value === 'string') return value.replace(/\s+/g, ' ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

const header = (name: string) => name.replace(/[_-]+/g, ' ').toUpperCase();

function alignedTable(headers: readonly string[], body: ReadonlyArray<readonly string[]>): string {
  const widths = headers.map((name, i) => Math.max(name.length, ...body.map((row) => row[i]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((text, i) => (i === cells.length - 1 ? text : text.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(headers), ...body.map(line)].join('\n');
}

function renderTable(rendered: Extract<Rendered, { kind: 'table' }>): string {
  const rows = rendered.rows as ReadonlyArray<Record<string, unknown>>;
  const names = rendered.columns ?? [...new Set(rows.flatMap((row) => Object.keys(row)))];
  if (rows.length === 0) return rendered.empty ?? '(none)';
  return alignedTable(
    names.map(header),
    rows.map((row) => names.map((name) => cell(row[name]))),
  );
}

export function renderText(rendered: Rendered): string {
  switch (rendered.kind) {
    case 'table':
      return renderTable(rendered);
    case 'record':
      return alignedTable(
        ['FIELD', 'VALUE'],
        Object.entries(rendered.record).map(([name, value]) => [name, cell(value)]),
      );
    case 'sections':
      return rendered.sections.map(renderText).join('\n\n');
    case 'text':
      return rendered.text;
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A command without a renderer of its own: a list is a table; a record's plain fields are a
 * FIELD / VALUE table, and each of its lists of records a table of its own after it.
 */
export function guessRendering(result: unknown): Rendered {
  if (Array.isArray(result)) return table(result.map((row) => (isRecord(row) ? row : { value: row })));
  if (!isRecord(result)) return { kind: 'text', text: cell(result) };
  const plain: Record<string, unknown> = {};
  const lists: Rendered[] = [];
  for (const [name, value] of Object.entries(result)) {
    if (Array.isArray(value) && value.every(isRecord)) lists.push(table(value, undefined, `(no ${name})`));
    else plain[name] = value;
  }
  const sections = [...(Object.keys(plain).length > 0 ? [record(plain)] : []), ...lists];
  return sections.length === 1 ? sections[0]! : { kind: 'sections', sections };
}
