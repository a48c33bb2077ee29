import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { spawnService, type RunningService } from '../src/processes.ts';

const FIXTURE = join(import.meta.dirname, 'fixtures/late-ready.ts');
const stops: (() => Promise<void>)[] = [];
const register = (_name: string, stop: () => Promise<void>) => stops.push(stop);
afterEach(async () => {
  await Promise.all(stops.splice(0).map((stop) => stop()));
});

describe('spawnService', () => {
  it('resolves when the service announces readiness, not when it first answers', async () => {
    const service: RunningService = await spawnService(
      { name: 'fixture', entry: FIXTURE, env: { PATH: process.env['PATH'] ?? '' } },
      register,
    );
    const answer = await fetch(service.url).then((response) => response.text());
    expect(answer).toBe('ready');
  });

  it('fails with the exit code and output of a service that ends before it is ready', async () => {
    const env = { PATH: process.env['PATH'] ?? '', FIXTURE_EXIT_CODE: '3' };
    await expect(spawnService({ name: 'fixture', entry: FIXTURE, env }, register)).rejects.toThrow(
      /exited \(3\) before it was ready:\nfixture: cannot start/,
    );
  });
});
