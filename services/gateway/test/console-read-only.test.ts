import { beforeAll, describe, expect, it } from 'vitest';
import { ACL, QUEUES } from '@switchboard/contracts';
import { insertArchive } from '@switchboard/db';
import { bullQueue } from '@switchboard/queue';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { adminCall, createAdmin, fixtureIds, type AdminFixture } from './admin-helpers.ts';
import { signInToConsole, type ConsoleClient } from './console-helpers.ts';
import { failedJob } from './failed-jobs.ts';
import { useGateway } from './helpers.ts';

const environment = useTestEnvironment();
const gateway = useGateway(environment, { RATE_LIMITS_ENABLED: 'false' });

/** Every ACL that lets a key look, and none that lets it change anything. */
const READ_ACLS = [
  ACL.authenticate,
  ACL.banEmailCheck,
  ACL.banIpCheck,
  ACL.banPhoneCheck,
  ACL.auditLogView,
  ACL.archiveViewAll,
  ACL.jobsRead,
];
/** The read ACLs plus every write ACL of the same screens. */
const WRITE_ACLS = [
  ...READ_ACLS,
  ACL.banEmailAdd,
  ACL.banEmailRemove,
  ACL.banIpAdd,
  ACL.banIpRemove,
  ACL.banPhoneAdd,
  ACL.banPhoneRemove,
  ACL.archiveTriggerUser,
  ACL.archiveTriggerGuild,
  ACL.jobsWrite,
];

let writer: AdminFixture;

beforeAll(async () => {
  writer = await createAdmin(gateway.pool, WRITE_ACLS);
  // A row on every list, so a per-row button would show if it were offered.
  for (const [kind, values] of [
    ['email', { emails: ['read-only@example.com'] }],
    ['ip', { ips: ['192.0.2.77'] }],
    ['phone', { phones: ['+14155550177'] }],
  ] as const) {
    const added = await adminCall(gateway.url, {
      method: 'POST',
      path: `/v1/admin/bans/${kind}/add`,
      key: writer.key,
      body: { ...values, reason: 'read-only walk' },
    });
    expect(added.status, kind).toBe(204);
  }
  await insertArchive(gateway.pool, {
    id: fixtureIds.next(),
    subjectType: 'user',
    subjectId: fixtureIds.next(),
    requestedBy: writer.adminId,
    retentionDays: 7,
  });
  const queue = bullQueue(QUEUES.webhookDeliveries, gateway.redis, gateway.config.REDIS_PREFIX);
  await failedJob(queue, environment.redisUrl, 'read-only-failure').finally(() => queue.close());
});

/** Every console screen the home page links to (the queue dashboard's redirect aside), by path. */
async function screensOf(client: ConsoleClient): Promise<string[]> {
  const home = (await client.get('/')).body as string;
  const main = home.slice(home.indexOf('<main'));
  return [...main.matchAll(/<a href="\/console(\/[^"]*)"/g)]
    .map((match) => match[1]!)
    .filter((path) => path !== '/queue-dashboard');
}

/** What on a page changes something: POST forms (sign-out aside) and links to a confirmation (text ending in …). */
function writeControls(page: string): string[] {
  const forms = [...page.matchAll(/<form method="post" action="([^"]+)"/g)]
    .map((match) => `form ${match[1]}`)
    .filter((form) => form !== 'form /console/sign-out');
  const links = [...page.matchAll(/<a [^>]*>([^<]*…)<\/a>/g)].map((match) => `link ${match[1]}`);
  return [...forms, ...links];
}

describe('a read-only key in the console', () => {
  it('sees every screen it may read, and no write button on any of them', async () => {
    const reader = await createAdmin(gateway.pool, READ_ACLS);
    const client = await signInToConsole(gateway.url, reader.key);
    const screens = await screensOf(client);
    expect(screens.sort()).toEqual(['/archives', '/audit', '/bans/email', '/bans/ip', '/bans/phone', '/jobs/failed']);
    for (const screen of screens) {
      const answer = await client.get(screen);
      expect(answer.status, screen).toBe(200);
      expect(writeControls(answer.body as string), screen).toEqual([]);
    }
  });

  it('while a key with the write ACLs finds them on the same screens', async () => {
    const client = await signInToConsole(gateway.url, writer.key);
    const found = new Map<string, string[]>();
    for (const screen of await screensOf(client))
      found.set(screen, writeControls((await client.get(screen)).body as string));
    expect(found.get('/bans/email')).toEqual(['form /console/bans/email/add', 'link Remove…']);
    expect(found.get('/bans/ip')).toEqual(['form /console/bans/ip/add', 'link Remove…']);
    expect(found.get('/bans/phone')).toEqual(['form /console/bans/phone/add', 'link Remove…']);
    expect(found.get('/archives')).toEqual(['form /console/archives/trigger']);
    expect(found.get('/jobs/failed')).toEqual(['link Retry…']);
  });
});
