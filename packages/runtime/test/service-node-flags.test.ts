import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  hasServiceNodeFlags,
  SERVICE_ENV,
  SERVICE_NODE_FLAGS,
  serviceEnvFor,
  withServiceNodeFlags,
} from '../src/heap.ts';

const repoFile = (path: string) => readFile(new URL(`../../../${path}`, import.meta.url), 'utf8');

/** The argument lists (JSON arrays) of the lines that run a service's main.ts with node. */
function serviceCommands(text: string): string[][] {
  return text
    .split('\n')
    .filter((line) => /\bservices\/[\w-]+\/src\/main\.ts\b/.test(line) && /^\s*(command:|CMD)/.test(line))
    .map((line) => JSON.parse(line.slice(line.indexOf('['))) as string[]);
}

describe('service node flags', () => {
  it('are added where missing, once, before the rest', () => {
    expect(withServiceNodeFlags([])).toEqual([...SERVICE_NODE_FLAGS]);
    expect(withServiceNodeFlags(['--import', 'x.ts'])).toEqual([...SERVICE_NODE_FLAGS, '--import', 'x.ts']);
    expect(withServiceNodeFlags(['--import', 'x.ts', ...SERVICE_NODE_FLAGS])).toEqual([
      '--import',
      'x.ts',
      ...SERVICE_NODE_FLAGS,
    ]);
    expect(hasServiceNodeFlags(['--import', 'x.ts'])).toBe(false);
    expect(hasServiceNodeFlags(withServiceNodeFlags(['--import', 'x.ts']))).toBe(true);
  });

  it('start every service of docker compose and of the image', async () => {
    const commands = [
      ...serviceCommands(await repoFile('docker-compose.yml')),
      ...serviceCommands(await repoFile('infra/Dockerfile')),
    ];
    // The gateway and the four workers in compose, the gateway in the image.
    expect(commands).toHaveLength(6);
    for (const command of commands) {
      const entry = command.findIndex((part) => part.endsWith('/src/main.ts'));
      expect(command[0]).toBe('node');
      expect(command.slice(1, entry)).toEqual(expect.arrayContaining([...SERVICE_NODE_FLAGS]));
    }
  });

  it("set the service environment's malloc threshold unless malloc is configured, and in the image", async () => {
    expect(serviceEnvFor({ PATH: '/bin' })).toEqual(SERVICE_ENV);
    expect(serviceEnvFor({ MALLOC_ARENA_MAX: '2' })).toEqual({});
    expect(serviceEnvFor({ GLIBC_TUNABLES: 'glibc.malloc.trim_threshold=0' })).toEqual({});
    // glibc reads it at start, so the image's processes get it from the image itself.
    const runtimeStage = (await repoFile('infra/Dockerfile'))
      .split(/^FROM /m)
      .find((stage) => stage.includes(' AS runtime'));
    for (const [name, value] of Object.entries(SERVICE_ENV))
      expect(runtimeStage).toMatch(new RegExp(`^ENV .*\\b${name}=${value}\\b`, 'm'));
  });
});
