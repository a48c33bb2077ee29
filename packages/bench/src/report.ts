import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { RoundsSummary } from './rounds.ts';
import type { BenchReport, LoadOptions } from './types.ts';

const number = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** The human table: one row per target, then the ratios and notes. */
export function formatReport(report: BenchReport, load: LoadOptions): string {
  const withP95 = report.targets.some(({ measurement }) => measurement.latencyMs.p95 !== undefined);
  const header = [
    'target',
    'req/s',
    'p50 ms',
    ...(withP95 ? ['p95 ms'] : []),
    'p99 ms',
    'requests',
    'non-2xx',
    'errors',
  ];
  const rows = report.targets.map(({ target, measurement: m }) => [
    target,
    number(m.requestsPerSecond),
    number(m.latencyMs.p50, 2),
    ...(withP95 ? [m.latencyMs.p95 === undefined ? '-' : number(m.latencyMs.p95, 2)] : []),
    number(m.latencyMs.p99, 2),
    number(m.requests),
    number(m.non2xx),
    number(m.errors + m.timeouts),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join('  ');
  return [
    `${report.benchmark}: ${load.connections} connections, ${load.durationSeconds} s measured after ${load.warmupSeconds} s warm-up`,
    line(header),
    line(widths.map((width) => '-'.repeat(width))),
    ...rows.map(line),
    ...Object.entries(report.ratios).map(
      ([name, value]) => `${name}: ${Number.isNaN(value) ? 'n/a' : number(value, 3)}`,
    ),
    ...report.notes.map((note) => `note: ${note}`),
    ...warnings(report),
  ].join('\n');
}

/** Failed responses make a throughput number meaningless: say so next to it. */
function warnings(report: BenchReport): string[] {
  return report.targets.flatMap(({ target, measurement: m }) => {
    const failed = Object.entries(m.statusCodes).filter(([code]) => !code.startsWith('2'));
    if (m.non2xx === 0 && m.errors === 0 && m.timeouts === 0) return [];
    const codes = failed.map(([code, count]) => `${count}× ${code}`).join(', ');
    return [
      `WARNING: ${target} had ${m.non2xx} non-2xx responses (${codes || 'none'}), ${m.errors} errors, ${m.timeouts} timeouts`,
    ];
  });
}

async function writeDocument(directory: string, name: string, content: object, load: LoadOptions): Promise<string> {
  await mkdir(directory, { recursive: true });
  const path = join(directory, `${name}.json`);
  const document = { ...content, load, node: process.version, finishedAt: new Date().toISOString() };
  await writeFile(path, `${JSON.stringify(document, null, 2)}\n`);
  return path;
}

/** Writes `<directory>/<benchmark>.json` (the last round's, with --rounds) and answers its path. */
export function writeReport(directory: string, report: BenchReport, load: LoadOptions): Promise<string> {
  return writeDocument(directory, report.benchmark, report, load);
}

/** Writes `<directory>/<benchmark>.rounds.json`: every round's figures and their medians. */
export function writeRoundsSummary(directory: string, summary: RoundsSummary, load: LoadOptions): Promise<string> {
  return writeDocument(directory, `${summary.benchmark}.rounds`, summary, load);
}
