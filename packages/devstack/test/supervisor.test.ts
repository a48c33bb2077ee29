import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAlive, spawnNode, waitFor } from '@switchboard/testkit';
import { createLogSink } from '../src/log.ts';
import { discoverServices } from '../src/services.ts';
import { createSupervisor } from '../src/supervisor.ts';

const NODE = process.execPath;
const IDLE = 'setInterval(() => {}, 1000)';

function testSupervisor(stopTimeoutMs = 5_000) {
  const lines: string[] = [];
  const logs = createLogSink({ write: (text: string) => lines.push(text) }, false);
  const supervisor = createSupervisor({ logs, cwd: process.cwd(), env: {}, stopTimeoutMs });
  return { supervisor, output: () => lines.join('') };
}

describe('supervisor', () => {
  it('stops everything when a child dies on its own, naming it, and ends with exit code 1', async () => {
    const { supervisor, output } = testSupervisor();
    const store = supervisor.spawn({ name: 'store', command: NODE, args: ['-e', IDLE] }, 'store');
    supervisor.spawn({ name: 'flaky', command: NODE, args: ['-e', 'setTimeout(() => process.exit(3), 200)'] }, 'app');

    expect(await supervisor.stopped).toBe(1);
    expect(output()).toContain('flaky exited with code 3 unexpectedly');
    expect(output()).toMatch(/store stopped \((exited with code 0|was killed by SIGTERM)\)/);
    expect(isAlive(store.pid)).toBe(false);
  });

  it('kills a child that ignores SIGTERM once the stop timeout has passed', async () => {
    const { supervisor, output } = testSupervisor(300);
    const stubborn = supervisor.spawn(
      { name: 'stubborn', command: NODE, args: ['-e', `process.on('SIGTERM', () => {}); console.log('ignoring SIGTERM'); ${IDLE}`] },
      'app',
    );
    await waitFor(async () => output().includes('ignoring SIGTERM'), 15_000);
    const started = Date.now();

    expect(await supervisor.shutdown(0, 'test over')).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(output()).toContain('stubborn did not stop within 300 ms; killing it');
    expect(output()).toContain('stubborn stopped (was killed by SIGKILL)');
    expect(isAlive(stubborn.pid)).toBe(false);
  });

  it('runs clean-up steps after the apps have stopped, and refuses to start anything during shutdown', async () => {
    const { supervisor } = testSupervisor();
    const app = supervisor.spawn({ name: 'app', command: NODE, args: ['-e', IDLE] }, 'app');
    const seen: string[] = [];
    supervisor.onStop(() => void seen.push(isAlive(app.pid) ? 'app alive' : 'app gone'));

    const stopping = supervisor.shutdown(0, 'test over');
    expect(() => supervisor.spawn({ name: 'late', command: NODE, args: ['-e', IDLE] }, 'app')).toThrow(/stopping/);
    expect(await stopping).toBe(0);
    expect(seen).toEqual(['app gone']);
  });
});

describe('lifelines', () => {
  it('stop an app and a guarded program when their supervisor is SIGKILLed', async () => {
    const fixture = join(import.meta.dirname, 'fixtures/orphan-parent.ts');
    const parent = spawnNode(fixture, { env: {} });
    // Its first line: the pids of what it started.
    const line = await waitFor(async () => /^(.*)\n/.exec(parent.stdout())?.[1], 15_000);
    const pids = JSON.parse(line) as { app: number; guard: number; sleep: number };
    expect([pids.app, pids.guard, pids.sleep].every(isAlive)).toBe(true);

    await parent.stop('SIGKILL');
    await waitFor(async () => ![pids.app, pids.guard, pids.sleep].some(isAlive), 10_000, 50);
  });
});

describe('service discovery', () => {
  it('finds the gateway and every services/*-worker with a src/main.ts, workers in name order', async () => {
    const root = await mkdtemp(join(tmpdir(), 'sb-discovery-'));
    try {
      for (const entry of ['gateway/src/main.ts', 'webhook-worker/src/main.ts', 'archive-worker/src/main.ts', 'tools/src/main.ts']) {
        await mkdir(join(root, 'services', entry, '..'), { recursive: true });
        await writeFile(join(root, 'services', entry), '');
      }
      await mkdir(join(root, 'services/empty-worker/src'), { recursive: true });

      expect(await discoverServices(root)).toEqual([
        { name: 'gateway', entry: 'services/gateway/src/main.ts' },
        { name: 'archive-worker', entry: 'services/archive-worker/src/main.ts' },
        { name: 'webhook-worker', entry: 'services/webhook-worker/src/main.ts' },
      ]);
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  });
});
