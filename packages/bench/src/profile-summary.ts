// Summarises V8 CPU profiles (`--cpu-prof`, e.g. a bench run with BENCH_CPU_PROF_DIR): where a
// process spent its samples, by package or file and by function (self time), idle excluded.
//   npm run bench:profile -- <file.cpuprofile | dir> [--top N]
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const IDLE = new Set(['(idle)', '(program)', '(root)']);

/** node_modules/<pkg> (scoped too), our own packages/<name> or services/<name>, node:internal, or the file. */
function codeArea(url: string): string {
  const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (dependency) return dependency[1]!;
  const ours = /\/(packages|services)\/([^/]+)\//.exec(url);
  if (ours) return `${ours[1]}/${ours[2]}`;
  if (url.startsWith('node:')) return url.split('/').slice(0, 2).join('/');
  return url === '' ? '(native / gc)' : url;
}

function addTo(totals: Map<string, number>, key: string, microseconds: number): void {
  totals.set(key, (totals.get(key) ?? 0) + microseconds);
}

function summarise(profile: Profile, top: number): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  profile.samples.forEach((id, index) => {
    const node = byId.get(id)!;
    const microseconds = profile.timeDeltas[index] ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    if (IDLE.has(functionName)) {
      idle += microseconds;
      return;
    }
    busy += microseconds;
    addTo(areas, codeArea(url), microseconds);
    addTo(functions, `${functionName || '(anonymous)'} ${codeArea(url)}:${lineNumber + 1}`, microseconds);
  });
  const rows = (totals: Map<string, number>) =>
    [...totals]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(
        ([name, us]) =>
          `  ${((100 * us) / Math.max(1, busy)).toFixed(1).padStart(5)}%  ${(us / 1000).toFixed(0).padStart(7)} ms  ${name}`,
      );
  return [
    `busy ${(busy / 1000).toFixed(0)} ms, idle ${(idle / 1000).toFixed(0)} ms`,
    'by area (self time):',
    ...rows(areas),
    'by function (self time):',
    ...rows(functions),
  ].join('\n');
}

async function profileFiles(path: string): Promise<string[]> {
  if (!(await stat(path)).isDirectory()) return [path];
  return (await readdir(path)).filter((name) => name.endsWith('.cpuprofile')).map((name) => join(path, name));
}

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { top: { type: 'string', default: '25' } },
});
if (positionals.length === 0) {
  process.stderr.write('usage: npm run bench:profile -- <file.cpuprofile | dir> [--top N]\n');
  process.exit(2);
}
for (const path of positionals) {
  for (const file of await profileFiles(path)) {
    const profile = JSON.parse(await readFile(file, 'utf8')) as Profile;
    process.stdout.write(`\n== ${file}\n${summarise(profile, Number(values.top))}\n`);
  }
}
