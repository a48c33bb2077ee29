import type { ScenarioResult } from './types.ts';

const COLUMNS = ['scenario', 'load', 'fault', 'result', 'verdict'] as const;

/** One text line per figure and problem, so that long results stay readable in a terminal. */
function cells(result: ScenarioResult): string[][] {
  const figures = result.figures.map(([name, value]) => `${name} ${value}`);
  const verdict =
    result.problems.length === 0 ? ['PASS'] : ['FAIL', ...result.problems.map((problem) => `- ${problem}`)];
  return [[result.scenario], wrap(result.load), wrap(result.fault), figures, verdict];
}

/** Splits text at spaces into lines of at most `width` characters. */
function wrap(text: string, width = 34): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}

/** The results as a plain-text table: scenario | load | fault | result | verdict. */
export function formatTable(results: ScenarioResult[]): string {
  const rows = results.map(cells);
  const widths = COLUMNS.map((title, column) =>
    Math.max(title.length, ...rows.flatMap((row) => row[column]!.map((line) => line.length))),
  );
  const line = (values: string[]) => `| ${values.map((value, column) => value.padEnd(widths[column]!)).join(' | ')} |`;
  const rule = `|${widths.map((width) => '-'.repeat(width + 2)).join('|')}|`;
  const body = rows.flatMap((row) => {
    const height = Math.max(...row.map((cell) => cell.length));
    return [...Array.from({ length: height }, (_, index) => line(row.map((cell) => cell[index] ?? ''))), rule];
  });
  return [line([...COLUMNS]), rule, ...body].join('\n');
}

/** The closing line the repository's runners read: every scenario is one check. */
export function summaryLine(results: ScenarioResult[]): string {
  const failed = results.filter((result) => result.problems.length > 0).length;
  return `${results.length - failed} passed, ${failed} failed`;
}
