import { UnrecoverableError, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ERRORS, QUEUES } from '@switchboard/contracts';
import { bullQueue } from '@switchboard/queue';
import { createWebhookFixture } from '@switchboard/testkit/webhooks';
import { spawnService, type ServiceProcess } from '@switchboard/testkit/processes';
import { startFaultProxy, type FaultProxy } from '@switchboard/testkit/fault-proxy';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { useTestPool } from '@switchboard/testkit/pool';
import { waitFor } from '@switchboard/testkit/wait';
import { errorLine, jsonOf, runCli } from './run-cli.ts';

// A real gateway (its PostgreSQL behind a fault proxy, for the 503 at the end) and the real
// bin, one child process per command, acting with an admin key made by `admin create`.
const environment = useTestEnvironment();
const db = useTestPool(environment, 1);
let gateway: ServiceProcess;
let databaseProxy: FaultProxy;
let adminKey: string;

beforeAll(async () => {
  const env = environment.processEnv();
  const database = new URL(env['DATABASE_URL']!);
  databaseProxy = await startFaultProxy({ host: database.hostname, port: Number(database.port || 5432) });
  gateway = await spawnService(
    'gateway',
    environment.processEnv({
      PORT: '0',
      HOST: '127.0.0.1',
      RATE_LIMITS_ENABLED: 'false',
      // Purges and bulk adds answer 202 at once: no worker runs here.
      ADMIN_JOB_WAIT_MS: '0',
      DATABASE_URL: databaseProxy.urlFor(env['DATABASE_URL']!),
    }),
  );
  const admin = await runCli(['admin', 'create', '--name', 'cli-operator', '--acl', '*', '--json'], env);
  adminKey = jsonOf(admin).key;
}, 60_000);

afterAll(async () => {
  await gateway?.stop();
  await databaseProxy?.close();
});

const apiEnv = (key = adminKey) => ({
  SWITCHBOARD_URL: `http://127.0.0.1:${String(gateway.ready['port'])}`,
  SWITCHBOARD_ADMIN_KEY: key,
});
const cli = (...args: string[]) => runCli(args, apiEnv());

/** The header line of a table: the first line of the output, its column names. */
const headerOf = (stdout: string) =>
  stdout
    .split('\n')[0]!
    .trim()
    .split(/\s{2,}/);

describe('switchboard keys', () => {
  it('creates, lists and revokes a key; the revoked key is refused with the API message', async () => {
    const created = jsonOf(
      await cli(
        'keys',
        'create',
        '--name',
        'ci',
        '--acl',
        'admin:authenticate',
        '--acl',
        'jobs:read',
        '--json',
        '--reason',
        'for ci',
      ),
    );
    expect(created).toMatchObject({ name: 'ci', acls: ['admin:authenticate', 'jobs:read'], key: expect.any(String) });
    const listed = jsonOf(await cli('keys', 'list', '--json'));
    expect(listed.map((key: { key_id: string }) => key.key_id)).toContain(created.key_id);
    const table = await cli('keys', 'list');
    expect(table.code).toBe(0);
    expect(headerOf(table.stdout)).toEqual(['KEY ID', 'NAME', 'ACLS', 'CREATED AT', 'LAST USED AT', 'EXPIRES AT']);
    expect(table.stdout).toContain(created.key_id);

    expect(jsonOf(await runCli(['jobs', 'failed', '--json'], apiEnv(created.key)))).toMatchObject({ jobs: [] });
    expect(jsonOf(await cli('keys', 'revoke', created.key_id, '--json'))).toEqual({ revoked: created.key_id });
    const refused = await runCli(['keys', 'list'], apiEnv(created.key));
    expect(refused.code).toBe(1);
    expect(errorLine(refused)).toMatchObject({
      error: 'UNAUTHORIZED',
      message: ERRORS.UNAUTHORIZED.message,
      details: { status: 401 },
    });

    // The reason went with the creation as the audit entry's.
    const audit = jsonOf(await cli('audit', 'search', 'for ci', '--action', 'create_admin_api_key', '--json'));
    expect(audit.logs).toEqual([expect.objectContaining({ target_id: created.key_id, audit_log_reason: 'for ci' })]);
  });

  it('gives the API error code, message and fields for a refused body, and a key without the ACL', async () => {
    const tooLong = await cli('keys', 'create', '--name', 'x'.repeat(101), '--acl', '*');
    expect(tooLong.code).toBe(2);
    const wrong = await runCli(['keys', 'list'], apiEnv('fa_1_not-a-key'));
    expect([wrong.code, errorLine(wrong).error]).toEqual([1, 'UNAUTHORIZED']);
    const narrow = jsonOf(await cli('keys', 'create', '--name', 'narrow', '--acl', 'admin:authenticate', '--json'));
    const missing = await runCli(['bans', 'ip', 'list'], apiEnv(narrow.key));
    expect(missing.code).toBe(1);
    expect(errorLine(missing)).toMatchObject({ error: 'MISSING_ACL', details: { status: 403 } });
  });
});

describe('switchboard bans', () => {
  it('adds, checks, lists and removes IP and e-mail bans, audited with the reason', async () => {
    expect(
      jsonOf(
        await cli(
          'bans',
          'ip',
          'add',
          '203.0.113.7',
          '198.51.100.0/24',
          '--ban-reason',
          'abuse',
          '--reason',
          'ticket 7',
          '--json',
        ),
      ),
    ).toEqual({ banned: ['203.0.113.7', '198.51.100.0/24'] });
    expect(jsonOf(await cli('bans', 'ip', 'check', '198.51.100.9', '--json'))).toMatchObject({
      banned: true,
      matched: '198.51.100.0/24',
      reason: 'abuse',
    });
    const listed = await cli('bans', 'ip', 'list');
    expect(headerOf(listed.stdout)).toEqual(expect.arrayContaining(['IP', 'REASON', 'EXPIRES AT']));
    expect(listed.stdout).toContain('198.51.100.0/24');
    // --contains is the list route's filter; the next-page hint keeps it.
    const searched = jsonOf(await cli('bans', 'ip', 'list', '--contains', '198.51', '--json'));
    expect(searched.bans.map((ban: { ip: string }) => ban.ip)).toEqual(['198.51.100.0/24']);
    expect(searched.contains).toBe('198.51');
    const paged = await cli('bans', 'ip', 'list', '--contains', '.', '--limit', '1');
    expect(paged.stdout).toMatch(/^more: --cursor \S+ --contains '\.'$/m);
    expect((await cli('bans', 'ip', 'list', '--contains', "it's")).stdout).toContain(`(no ban contains "it's")`);

    // The address itself is unbanned; the range still covers it and is named.
    expect(jsonOf(await cli('bans', 'ip', 'remove', '203.0.113.7', '198.51.100.4', '--json'))).toEqual({
      removed: ['203.0.113.7', '198.51.100.4'],
      still_covering: ['198.51.100.0/24'],
    });
    expect(jsonOf(await cli('bans', 'ip', 'remove', '198.51.100.0/24', '--json')).still_covering).toEqual([]);
    const audit = jsonOf(await cli('audit', 'list', '--target-type', 'ip', '--json'));
    expect(audit.logs.map((log: { action: string; target_id: string }) => `${log.action} ${log.target_id}`)).toEqual(
      expect.arrayContaining(['ban_ip 203.0.113.7', 'ban_ip 198.51.100.0/24', 'unban_ip 198.51.100.0/24']),
    );
    const reasons = await cli('audit', 'list', '--action', 'ban_ip');
    expect(headerOf(reasons.stdout)).toEqual([
      'LOG ID',
      'CREATED AT',
      'ADMIN USER ID',
      'ACTION',
      'TARGET TYPE',
      'TARGET ID',
      'AUDIT LOG REASON',
    ]);
    expect(reasons.stdout).toContain('ticket 7');

    expect(jsonOf(await cli('bans', 'email', 'add', 'spam@example.com', '--json'))).toEqual({
      banned: ['spam@example.com'],
    });
    expect(jsonOf(await cli('bans', 'email', 'list', '--json')).bans).toEqual([
      expect.objectContaining({ email: 'spam@example.com' }),
    ]);
    const bad = await cli('bans', 'email', 'add', 'not-an-address');
    expect(bad.code).toBe(1);
    expect(errorLine(bad)).toMatchObject({
      error: 'INVALID_FORM_BODY',
      details: { status: 400, errors: [expect.anything()] },
    });
  });
});

describe('switchboard webhooks', () => {
  it('lists, reads and deletes a webhook', async () => {
    const hook = await createWebhookFixture(db(), { name: 'Deploys' });
    const listed = await cli('webhooks', 'list', '--guild', hook.guildId);
    expect(headerOf(listed.stdout)).toEqual([
      'ID',
      'NAME',
      'GUILD ID',
      'CHANNEL ID',
      'SIGNED',
      'CREATOR ID',
      'CREATED AT',
    ]);
    expect(listed.stdout).toContain('Deploys');
    expect(jsonOf(await cli('webhooks', 'list', '--channel', hook.channelId, '--json')).webhooks).toHaveLength(1);
    expect(jsonOf(await cli('webhooks', 'get', hook.webhookId, '--json'))).toMatchObject({
      id: hook.webhookId,
      signed: false,
    });
    const shown = await cli('webhooks', 'get', hook.webhookId);
    expect(headerOf(shown.stdout)).toEqual(['FIELD', 'VALUE']);
    expect(jsonOf(await cli('webhooks', 'delete', hook.webhookId, '--reason', 'spam', '--json'))).toEqual({
      deleted: hook.webhookId,
    });
    const gone = await cli('webhooks', 'get', hook.webhookId);
    expect([gone.code, errorLine(gone).error]).toEqual([1, 'UNKNOWN_WEBHOOK']);
    const neither = await cli('webhooks', 'list');
    expect([neither.code, errorLine(neither).error]).toEqual([2, 'INVALID_ARGUMENTS']);
  });
});

describe('switchboard purges and bulk add-members', () => {
  it('start an operation (202 with no worker here) and read its status', async () => {
    const hook = await createWebhookFixture(db());
    const purge = jsonOf(await cli('purges', 'start', '--guild', hook.guildId, '--json'));
    expect(purge).toEqual({ purge_id: expect.any(String), status: 'queued' });
    expect(jsonOf(await cli('purges', 'get', purge.purge_id, '--json'))).toEqual(purge);
    const added = jsonOf(await cli('bulk', 'add-members', '--guild', hook.guildId, '--user', hook.ownerId, '--json'));
    expect(added).toEqual({ operation_id: expect.any(String), status: 'queued' });
    const status = await cli('bulk', 'get', added.operation_id);
    expect(headerOf(status.stdout)).toEqual(['FIELD', 'VALUE']);
    expect(status.stdout).toContain('queued');
    const unknown = await cli('purges', 'get', '1');
    expect([unknown.code, errorLine(unknown).error]).toEqual([1, 'UNKNOWN_ASSET_PURGE']);
  });
});

describe('switchboard jobs', () => {
  it('lists failed jobs and retries one through the API', async () => {
    const connection = new Redis(environment.redisUrl, { maxRetriesPerRequest: null });
    const queue = bullQueue(QUEUES.webhookDeliveries, connection, environment.redisPrefix);
    const worker = new Worker(QUEUES.webhookDeliveries, async () => Promise.reject(new UnrecoverableError('broken')), {
      connection: connection.duplicate(),
      prefix: queue.opts.prefix,
    });
    try {
      const job = await queue.add('cli-failure', {}, { attempts: 1 });
      await waitFor(async () => (await queue.getJobState(job.id!)) === 'failed', 10_000);
      await worker.close();
      const listed = jsonOf(await cli('jobs', 'failed', '--queue', QUEUES.webhookDeliveries, '--json'));
      expect(listed.jobs).toEqual([expect.objectContaining({ id: job.id, name: 'cli-failure', last_error: 'broken' })]);
      const table = await cli('jobs', 'failed');
      expect(headerOf(table.stdout)).toEqual(['QUEUE', 'ID', 'NAME', 'ATTEMPTS', 'FAILED AT', 'LAST ERROR']);
      const retried = await cli('jobs', 'retry', '--queue', QUEUES.webhookDeliveries, '--id', job.id!, '--json');
      expect(jsonOf(retried)).toMatchObject({ outcome: 'retried' });
      expect(await queue.getJobState(job.id!)).toBe('waiting');
      const again = await cli('jobs', 'retry', '--queue', QUEUES.webhookDeliveries, '--id', job.id!);
      expect([again.code, errorLine(again).error]).toEqual([1, 'NOT_FAILED']);
    } finally {
      await worker.close();
      await queue.close();
      connection.disconnect();
    }
  });
});

describe('an API that is unavailable', () => {
  it('says so with the API code and when to retry, exit 1', async () => {
    databaseProxy.setMode('cut');
    try {
      const run = await cli('audit', 'list', '--json');
      expect(run.code).toBe(1);
      expect(errorLine(run)).toMatchObject({
        error: 'SERVICE_UNAVAILABLE',
        message: expect.stringMatching(/unavailable: retry after \d+ s\.$/),
        details: { status: 503, retry_after: expect.any(Number) },
      });
    } finally {
      databaseProxy.setMode('pass');
    }
  });
});
