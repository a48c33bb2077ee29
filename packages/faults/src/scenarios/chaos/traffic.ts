import { call } from '@switchboard/testkit/http';
import { mixedTraffic, reply, type MixedTrafficTargets } from '../outage/mixed.ts';
import type { RequestKind } from '../outage/traffic.ts';

/** The job routes: with no wait for the worker (ADMIN_JOB_WAIT_MS=0) they answer 202, or 200 when the job was quicker. */
const JOB_ROUTES = new Set(['asset-purge', 'bulk-add']);
/** One guild archive at most this often: each is a ZIP built and stored, far costlier than a request. */
const ARCHIVE_EVERY_MS = 2_000;

/**
 * `archive`: a guild archive triggered every ARCHIVE_EVERY_MS, and the last one's status read
 * in between, so the archive worker, its S3 upload and the status route all run through the faults.
 */
function archiveKind({ gatewayUrl, adminKey, guild }: MixedTrafficTargets): RequestKind {
  let last: { id: string; at: number } | undefined;
  const admin = (method: string, path: string, body?: unknown, timeoutMs?: number) =>
    call(method, `${gatewayUrl}${path}`, { token: adminKey, scheme: 'Admin', body, timeoutMs });
  return {
    name: 'archive',
    expected: [200],
    async send(timeoutMs) {
      if (last !== undefined && performance.now() - last.at < ARCHIVE_EVERY_MS)
        return reply(await admin('GET', `/v1/admin/archives/guild/${guild.guildId}/${last.id}`, undefined, timeoutMs));
      const answer = await admin('POST', '/v1/admin/archives/guild', { guild_id: guild.guildId }, timeoutMs);
      if (answer.status === 200) last = { id: answer.body.archive_id, at: performance.now() };
      return reply(answer);
    },
  };
}

/** The outage's mixed traffic, every kind from the start, and archives besides. */
export function chaosTraffic(targets: MixedTrafficTargets): RequestKind[] {
  const kinds = mixedTraffic(targets).map((kind) => ({
    ...kind,
    sinceOutage: false,
    expected: JOB_ROUTES.has(kind.name) ? [200, 202] : kind.expected,
  }));
  return [...kinds, archiveKind(targets)];
}
