import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { READY_MESSAGE } from '@switchboard/runtime';
import { isAlive, spawnNode } from '@switchboard/testkit/processes';
import { waitFor } from '@switchboard/testkit/wait';
import { createLogSink } from '../src/log.ts';
import type { RestartBackoffPolicy } from '../src/restart-backoff.ts';
import { discoverServices } from '../src/services.ts';
import { createSupervisor } from '../src/supervisor.ts';

const NODE = process.execPath;
const IDLE = 'setInterval(() => {}, 1000)';
/** An app that says it is ready over IPC, as announceReady does, then idles. */
const READY_THEN_IDLE = `process.send({ type: '${READY_MESSAGE}', name: 'app' }); ${IDLE}`;
/** Long enough that no run of a crash-looping test app counts as having stayed up. */
const NEVER_RESET_MS = 600_000;

const QUICK_RESTARTS: RestartBackoffPolicy = { initialDelayMs: 50, maxDelayMs: 1_000, resetAfterMs: NEVER_RESET_MS };

function testSupervisor(stopTimeoutMs = 5_000, restartBackoff = QUICK_RESTARTS) {
  const lines: Array<{ atMs: number; text: string }> = [];
  const logs = createLogSink({ write: (text: string) => lines.push({ atMs: performance.now(), text }) }, false);
  const supervisor = createSupervisor({ logs, cwd: process.cwd(), env: {}, stopTimeoutMs, restartBackoff });
  return { supervisor, output: () => lines.map((line) => line.text).join(''), lines };
}

/**
 * For each restart: the delay the supervisor announced and how long it then waited before the
 * process ran again, from when the two log lines were written.
 */
function restartWaits(lines: Array<{ atMs: number; text: string }>): Array<{ announcedMs: number; waitedMs: number }> {
  const waits: Array<{ announcedMs: number; waitedMs: number }> = [];
  let announced: { atMs: number; delayMs: number } | undefined;
  for (const { atMs, text } of lines) {
    const delay = /restarting it in (\d+) ms/.exec(text);
    if (delay) announced = { atMs, delayMs: Number(delay[1]) };
    else if (announced && text.includes('| restarted ')) {
      waits.push({ announcedMs: announced.delayMs, waitedMs: atMs - announced.atMs });
      announced = undefined;
    }
  }
  return waits;
}

describe('supervisor', () => {
  it('stops everything when a store dies on its own, naming it, and ends with exit code 1', async () => {
    const { supervisor, output } = testSupervisor();
    const app = supervisor.startApp({ name: 'app', command: NODE, args: ['-e', IDLE] });
    supervisor.spawnStore({ name: 'flaky', command: NODE, args: ['-e', 'setTimeout(() => process.exit(3), 200)'] });

    expect(await supervisor.stopped).toBe(1);
    expect(output()).toContain('flaky exited with code 3 unexpectedly');
    expect(output()).toMatch(/app stopped \((exited with code 0|was killed by SIGTERM)\)/);
    expect(app.restarts()).toBe(0);
    expect(isAlive(app.current().pid)).toBe(false);
  });

  it('restarts an app killed with SIGKILL, logs when it is back, and keeps the rest running', async () => {
    const { supervisor, output } = testSupervisor();
    const store = supervisor.spawnStore({ name: 'store', command: NODE, args: ['-e', IDLE] });
    const app = supervisor.startApp({ name: 'app', command: NODE, args: ['-e', READY_THEN_IDLE] });
    const first = app.current();
    await waitFor(async () => output().includes(`app is ready (pid ${first.pid})`), 15_000);

    process.kill(first.pid, 'SIGKILL');
    await waitFor(async () => output().includes(`app is back (pid ${app.current().pid}, restart 1)`), 15_000);
    expect(output()).toMatch(/app was killed by SIGKILL after \d+ ms; restarting it in 50 ms \(restart 1\)/);
    expect(app.current().pid).not.toBe(first.pid);
    expect(isAlive(app.current().pid)).toBe(true);
    expect(isAlive(store.pid)).toBe(true);
    expect(supervisor.isStopping()).toBe(false);

    expect(await supervisor.shutdown(0, 'test over')).toBe(0);
    expect([app.current().pid, store.pid].filter(isAlive)).toEqual([]);
  });

  it('backs off an app that crashes at once, in a loop, doubling the delay up to the cap', async () => {
    const policy = { initialDelayMs: 100, maxDelayMs: 400, resetAfterMs: NEVER_RESET_MS };
    const { supervisor, output, lines } = testSupervisor(5_000, policy);
    const app = supervisor.startApp({ name: 'crasher', command: NODE, args: ['-e', 'process.exit(3)'] });

    await waitFor(async () => restartWaits(lines).length >= 4, 60_000);
    expect(await supervisor.shutdown(0, 'test over')).toBe(0);
    expect(output()).toContain('crasher exited with code 3 after');
    const waits = restartWaits(lines).slice(0, 4);
    expect(waits.map((wait) => wait.announcedMs)).toEqual([100, 200, 400, 400]);
    // Timers never fire early, however busy the machine, so this holds without an upper bound;
    // a supervisor that restarted at once would wait only as long as a spawn takes.
    for (const { announcedMs, waitedMs } of waits) expect(waitedMs).toBeGreaterThanOrEqual(announcedMs - 1);
    expect(app.restarts()).toBeGreaterThanOrEqual(4);
  });

  it('kills a child that ignores SIGTERM once the stop timeout has passed', async () => {
    const { supervisor, output } = testSupervisor(300);
    const stubborn = supervisor.startApp({
      name: 'stubborn',
      command: NODE,
      args: ['-e', `process.on('SIGTERM', () => {}); console.log('ignoring SIGTERM'); ${IDLE}`],
    });
    await waitFor(async () => output().includes('ignoring SIGTERM'), 15_000);
    const started = Date.now();

    expect(await supervisor.shutdown(0, 'test over')).toBe(0);
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(output()).toContain('stubborn did not stop within 300 ms; killing it');
    expect(output()).toContain('stubborn stopped (was killed by SIGKILL)');
    expect(isAlive(stubborn.current().pid)).toBe(false);
  });

  it('runs clean-up steps after the apps have stopped, and refuses to start anything during shutdown', async () => {
    const { supervisor } = testSupervisor();
    const app = supervisor.startApp({ name: 'app', command: NODE, args: ['-e', IDLE] });
    const seen: string[] = [];
    supervisor.onStop(() => void seen.push(isAlive(app.current().pid) ? 'app alive' : 'app gone'));

    const stopping = supervisor.shutdown(0, 'test over');
    expect(() => supervisor.startApp({ name: 'late', command: NODE, args: ['-e', IDLE] })).toThrow(/stopping/);
    expect(() => supervisor.spawnStore({ name: 'late', command: NODE, args: ['-e', IDLE] })).toThrow(/stopping/);
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
      for (const entry of [
        'gateway/src/main.ts',
        'webhook-worker/src/main.ts',
        'archive-worker/src/main.ts',
        'tools/src/main.ts',
      ]) {
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
