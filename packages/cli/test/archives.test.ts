import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnService, type ServiceProcess } from '@switchboard/testkit/processes';
import { startFaultProxy } from '@switchboard/testkit/fault-proxy';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { useTestPool } from '@switchboard/testkit/pool';
import { waitFor } from '@switchboard/testkit/wait';
import { jsonOf, runCli, startCli } from './run-cli.ts';

// Real processes throughout: the CLI asks the gateway for the archive, an archive worker builds
// the ZIP into S3, and the CLI (not a terminal here: one plain line per change on stderr) watches
// it through the API, then downloads it.
const environment = useTestEnvironment();
const db = useTestPool(environment, 1);
const WORKER_ENV = { ARCHIVE_PROGRESS_INTERVAL_MS: '100' };
let gateway: ServiceProcess;
let adminKey: string;
let guildIds: string[];
let downloads: string;

beforeAll(async () => {
  gateway = await spawnService(
    'gateway',
    environment.processEnv({ PORT: '0', HOST: '127.0.0.1', RATE_LIMITS_ENABLED: 'false' }),
  );
  const admin = await runCli(
    ['admin', 'create', '--name', 'archive-watcher', '--acl', '*', '--json'],
    environment.processEnv(),
  );
  adminKey = jsonOf(admin).key;
  const seed = await runCli(
    [
      'demo',
      'seed',
      '--guilds',
      '4',
      '--channels',
      '1',
      '--members',
      '2',
      '--messages',
      '2000',
      '--non-members',
      '0',
      '--json',
    ],
    environment.processEnv(),
  );
  guildIds = jsonOf(seed).guilds.map((guild: { id: string }) => guild.id);
  downloads = await mkdtemp(join(tmpdir(), 'sb-cli-archives-'));
}, 120_000);

afterAll(async () => {
  await gateway?.stop();
  if (downloads) await rm(downloads, { recursive: true, force: true });
});

const gatewayUrl = () => `http://127.0.0.1:${String(gateway.ready['port'])}`;
const apiEnv = (url = gatewayUrl()) => ({ SWITCHBOARD_URL: url, SWITCHBOARD_ADMIN_KEY: adminKey });

/** Requests a guild archive with the CLI; nothing builds it until a worker runs. */
async function requestArchive(guildId: string): Promise<string> {
  const archive = jsonOf(await runCli(['archives', 'trigger', '--guild', guildId, '--json'], apiEnv()));
  expect(archive).toMatchObject({ subject_type: 'guild', subject_id: guildId, status: 'queued' });
  return archive.archive_id;
}

/** Starts the watch and waits until it reported the archive still queued (no worker yet). */
async function watchQueued(archiveId: string, extra: string[] = [], env: Record<string, string> = apiEnv()) {
  const watching = startCli(['archives', 'watch', archiveId, '--interval-ms', '100', '--json', ...extra], env);
  await waitFor(async () => watching.stderr().startsWith('queued 0% Queued\n'), 15_000);
  return watching;
}

const lines = (text: string) => text.split('\n').filter(Boolean);

describe('switchboard archives', () => {
  it('follows an archive from queued to completed, one line per change, then downloads it', async () => {
    const [guildId] = guildIds as [string];
    const archiveId = await requestArchive(guildId);
    const watching = await watchQueued(archiveId);
    const worker = await spawnService('archive-worker', environment.processEnv(WORKER_ENV));
    try {
      const status = await watching.exit;
      expect(status.code, watching.stderr()).toBe(0);
    } finally {
      await worker.stop();
    }
    const progress = lines(watching.stderr());
    expect(progress[0]).toBe('queued 0% Queued');
    expect(progress.at(-1)).toBe('completed 100% Completed');
    // Plain output: no bar redraws, no escape sequences, and no line repeated from one poll to the next.
    // biome-ignore lint/suspicious/noControlCharactersInRegex: ESC is what the test looks for
    expect(watching.stderr()).not.toMatch(/[\r\x1b]/);
    expect(progress.every((line, i) => i === 0 || line !== progress[i - 1])).toBe(true);
    for (const line of progress) expect(line).toMatch(/^(queued|running|completed) \d{1,3}%( .+)?$/);

    const result = JSON.parse(watching.stdout());
    const downloadPath = `/v1/admin/archives/guild/${guildId}/${archiveId}/download`;
    expect(result).toMatchObject({
      archive_id: archiveId,
      subject_type: 'guild',
      subject_id: guildId,
      status: 'completed',
      download_path: downloadPath,
    });
    expect(Number(result.file_size)).toBeGreaterThan(0);
    const file = join(downloads, 'guild.zip');
    const saved = jsonOf(await runCli(['archives', 'download', archiveId, '--output', file, '--json'], apiEnv()));
    expect(saved).toEqual({ archive_id: archiveId, file, bytes: Number(result.file_size) });
    expect((await stat(file)).size).toBe(Number(result.file_size));

    // For people: the archive as FIELD / VALUE rows, and the list as a table.
    const shown = await runCli(['archives', 'get', archiveId], apiEnv());
    expect(shown.stdout.split('\n')[0]).toMatch(/^FIELD\s+VALUE$/);
    const listed = await runCli(['archives', 'list', '--subject-type', 'guild', '--subject-id', guildId], apiEnv());
    expect(listed.stdout.split('\n')[0]).toMatch(/^ARCHIVE ID\s+SUBJECT TYPE\s+SUBJECT ID\s+STATUS/);
    expect(listed.stdout).toContain(archiveId);
  });

  it('exits 1 with ARCHIVE_FAILED and the recorded reason when the archive fails', async () => {
    const guildId = guildIds[1]!;
    const archiveId = await requestArchive(guildId);
    // The guild disappears before a worker takes the job: the build fails for good.
    await db().query('DELETE FROM guilds WHERE id = $1', [guildId]);
    const watching = await watchQueued(archiveId);
    const worker = await spawnService('archive-worker', environment.processEnv(WORKER_ENV));
    try {
      expect((await watching.exit).code).toBe(1);
    } finally {
      await worker.stop();
    }
    const output = lines(watching.stderr());
    expect(output.at(-2)).toMatch(/^failed \d{1,3}%/);
    expect(JSON.parse(output.at(-1)!)).toMatchObject({
      error: 'ARCHIVE_FAILED',
      details: { archive_id: archiveId, error_message: `Guild ${guildId} not found` },
    });
    expect(watching.stdout()).toBe('');
  });

  it('gives up after --timeout-seconds with exit 124 while the archive is still queued', async () => {
    const archiveId = await requestArchive(guildIds[2]!);
    const watching = await watchQueued(archiveId, ['--timeout-seconds', '1']);
    expect((await watching.exit).code).toBe(124);
    expect(JSON.parse(lines(watching.stderr()).at(-1)!)).toMatchObject({
      error: 'WATCH_TIMEOUT',
      details: { archive_id: archiveId, status: 'queued' },
    });
  });

  it('keeps watching while the gateway cannot be reached, saying so once, and still ends with the completed archive', async () => {
    const archiveId = await requestArchive(guildIds[3]!);
    const proxy = await startFaultProxy({ host: '127.0.0.1', port: Number(gateway.ready['port']) });
    let worker: ServiceProcess | undefined;
    try {
      const watching = await watchQueued(archiveId, [], apiEnv(proxy.urlFor(gatewayUrl())));
      proxy.setMode('cut');
      await waitFor(async () => watching.stderr().includes('gateway unavailable, retrying'), 10_000);
      // The archive is built meanwhile.
      worker = await spawnService('archive-worker', environment.processEnv(WORKER_ENV));
      await waitFor(
        async () =>
          (await db().query('SELECT status FROM archives WHERE id = $1', [archiveId])).rows[0]?.status === 'completed',
        15_000,
      );
      proxy.setMode('pass');
      expect((await watching.exit).code, watching.stderr()).toBe(0);
      const progress = lines(watching.stderr());
      expect(progress.filter((line) => line.startsWith('gateway unavailable'))).toHaveLength(1);
      expect(progress.filter((line) => line === 'gateway reachable again')).toHaveLength(1);
      expect(progress.at(-1)).toBe('completed 100% Completed');
      expect(JSON.parse(watching.stdout())).toMatchObject({ archive_id: archiveId, status: 'completed' });
    } finally {
      await worker?.stop();
      await proxy.close();
    }
  });

  it('refuses a malformed id (exit 2) and reports an unknown one (exit 1)', async () => {
    const malformed = await runCli(['archives', 'watch', 'not-an-id'], apiEnv());
    expect(malformed.code).toBe(2);
    expect(JSON.parse(malformed.stderr)).toMatchObject({
      error: 'INVALID_ARGUMENTS',
      details: [{ option: '<archive-id>' }],
    });
    const missing = await runCli(['archives', 'watch'], apiEnv());
    expect(missing.code).toBe(2);
    const unknown = await runCli(['archives', 'watch', '123456789012345678'], apiEnv());
    expect(unknown.code).toBe(1);
    expect(JSON.parse(lines(unknown.stderr).at(-1)!)).toMatchObject({ error: 'UNKNOWN_ARCHIVE' });
  });
});
