// `npm run fuzz -- --runs N`: the fuzz suite at N cases per route family, on the test services.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '10000' } } });
const runs = Number(values.runs);
if (!Number.isSafeInteger(runs) || runs < 1) {
  process.stderr.write('fuzz: --runs takes a whole number of cases per route family\n');
  process.exit(64);
}
const runner = fileURLToPath(new URL('../../../../packages/testkit/src/run.ts', import.meta.url));
const child = spawn(process.execPath, [runner, fileURLToPath(new URL('./fuzz.test.ts', import.meta.url))], {
  stdio: 'inherit',
  env: { ...process.env, FUZZ_RUNS: String(runs) },
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
