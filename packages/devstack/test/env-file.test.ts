import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { writeEnvFile } from '../src/env-file.ts';

let folder: string;
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'sb-env-file-'));
});
afterEach(() => rm(folder, { recursive: true, force: true }));

it('is never seen empty or half written by a reader polling for it', async () => {
  const path = join(folder, 'devstack.env');
  const values = Object.fromEntries(Array.from({ length: 400 }, (_, index) => [`SETTING_${index}`, 'x'.repeat(200)]));
  const whole = `${Object.entries(values)
    .map(([name, value]) => `${name}=${value}`)
    .join('\n')}\n`;
  let writing = true;
  const seen = new Set<string>();
  const reader = (async () => {
    while (writing) {
      const text = await readFile(path, 'utf8').catch(() => undefined);
      if (text !== undefined) seen.add(text === whole ? 'whole' : `partial (${text.length} chars)`);
    }
  })();
  for (let write = 0; write < 50; write += 1) await writeEnvFile(path, values);
  writing = false;
  await reader;
  expect([...seen]).toEqual(['whole']);
  expect((await stat(path)).mode & 0o777).toBe(0o600);
  expect(await readdir(folder)).toEqual(['devstack.env']);
});
