import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

// A fresh process, its every module resolution watched: what starting tracing loads.
const WATCH = `data:text/javascript,${encodeURIComponent(`
import { registerHooks } from 'node:module';
registerHooks({ resolve(specifier, context, next) {
  const resolved = next(specifier, context);
  if (/opentelemetry|in-the-middle/.test(resolved.url)) process.stdout.write('loaded ' + resolved.url + '\\n');
  return resolved;
} });`)}`;
const START = `const { startTracing } = await import(${JSON.stringify(new URL('../src/index.ts', import.meta.url).href)});
process.stdout.write('tracing ' + (await startTracing('check')) + '\\n');`;

function start(env: Record<string, string>): string[] {
  const output = execFileSync(process.execPath, ['--import', WATCH, '--input-type=module', '-e', START], {
    env: { PATH: process.env['PATH'] ?? '', ...env },
    encoding: 'utf8',
  });
  return output.trim().split('\n');
}

describe('startTracing', () => {
  it('off: loads nothing of OpenTelemetry', () => {
    expect(start({})).toEqual(['tracing false']);
  });

  it('on: loads the SDK and the import hook', () => {
    const lines = start({ OTEL_TRACES_EXPORTER: 'console' });
    expect(lines.at(-1)).toBe('tracing true');
    expect(lines.some((line) => line.includes('@opentelemetry/sdk-node'))).toBe(true);
    expect(lines.some((line) => line.includes('import-in-the-middle'))).toBe(true);
  });
});
