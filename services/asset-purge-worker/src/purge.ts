import { completeOperation, type Operation } from '@switchboard/admin-operations';
import {
  assetPurgeRequestSchema,
  storageKeys,
  type AssetPurgeRequest,
  type AssetPurgeResult,
  type ItemError,
  type PurgedAsset,
} from '@switchboard/contracts';
import {
  deleteExpressionsById,
  deleteGuildAssets,
  findPurgeObjectKeys,
  insertAuditLogs,
  recordPurgeRemovals,
  withTransaction,
  type NewAuditLog,
  type Pool,
  type PoolClient,
} from '@switchboard/db';
import type { Logger } from '@switchboard/logger';
import { snowflakeText, type SnowflakeGenerator } from '@switchboard/snowflake';
import type { Storage } from '@switchboard/storage';

export interface PurgeDeps {
  pool: Pool;
  storage: Storage;
  ids: SnowflakeGenerator;
  logger: Logger;
}

/** Phase one's outcome: what the rows said; the object count comes after phase two. */
type Removal = Omit<AssetPurgeResult, 'deleted_objects'>;

/**
 * Runs one purge in two phases, each idempotent. Phase one, in one transaction: delete the
 * rows, write the audit entries, record the per-item outcome and the object keys on the purge.
 * Phase two: delete those objects in S3 `DeleteObjects` batches (an object already gone counts
 * as deleted), then complete the purge. A retry after phase one finds the keys it recorded and
 * only repeats phase two, so it reports what the first run removed rather than "not found".
 */
export function purgeRunner(deps: PurgeDeps): (operation: Operation) => Promise<AssetPurgeResult> {
  return async (operation) => {
    const request = assetPurgeRequestSchema.parse(operation.request);
    const recorded = await findPurgeObjectKeys(deps.pool, operation.id);
    const { removal, keys } =
      recorded === null
        ? await withTransaction(deps.pool, (client) => removeRows(client, deps.ids, operation, request))
        : { removal: operation.result as Removal, keys: recorded };
    const deleted = await deps.storage.deleteObjects(keys);
    if (deleted.errors.length > 0) {
      const [first] = deleted.errors;
      throw new Error(
        `the store refused ${deleted.errors.length} of ${keys.length} deletions (first: ${first?.code} ${first?.key})`,
      );
    }
    const result: AssetPurgeResult = { ...removal, deleted_objects: new Set(keys).size };
    await completeOperation(deps.pool, 'asset_purges', operation.id, result);
    if (keys.length > 0)
      deps.logger.info(
        { purgeId: operation.id, items: removal.processed.length, objects: keys.length },
        'assets purged',
      );
    return result;
  };
}

async function removeRows(
  client: PoolClient,
  ids: SnowflakeGenerator,
  operation: Operation,
  request: AssetPurgeRequest,
): Promise<{ removal: Removal; keys: string[] }> {
  const { removal, keys, audit } =
    'ids' in request ? await purgeByIds(client, request.ids) : await purgeGuild(client, request.guild_id);
  const actor = {
    adminUserId: operation.requestedBy,
    apiKeyId: operation.requestedByKeyId,
    reason: operation.auditLogReason,
  };
  await insertAuditLogs(
    client,
    audit.map((entry) => ({ id: ids.next(), ...actor, ...entry })),
  );
  await recordPurgeRemovals(client, operation.id, removal, keys);
  return { removal, keys };
}

type AuditEntry = Omit<NewAuditLog, 'id' | 'adminUserId' | 'apiKeyId' | 'reason'>;
interface Purged {
  removal: Removal;
  keys: string[];
  audit: AuditEntry[];
}

const AUDIT_BY_TYPE: Record<string, { targetType: string; action: string }> = {
  emoji: { targetType: 'guild_emoji', action: 'purge_guild_emoji_asset' },
  sticker: { targetType: 'guild_sticker', action: 'purge_guild_sticker_asset' },
  unknown: { targetType: 'asset', action: 'purge_asset' },
};

/**
 * Fluxer's semantics (docs/decisions.md#fluxer-asset-purge-by-id): items in request order, trimmed
 * duplicates skipped (the first wins), a non-numeric id an error entry; an id found in neither
 * table still has both of its possible objects deleted, and is reported `unknown`.
 */
async function purgeByIds(client: PoolClient, requested: readonly string[]): Promise<Purged> {
  const errors: ItemError[] = [];
  /** As given (trimmed), and as the database writes it. */
  const valid: Array<{ id: string; canonical: string }> = [];
  for (const id of new Set(requested.map((value) => value.trim()))) {
    const canonical = snowflakeText(id);
    if (canonical === null) errors.push({ id, error: 'Invalid numeric ID' });
    else valid.push({ id, canonical });
  }
  const removed = new Map(
    (
      await deleteExpressionsById(
        client,
        valid.map((item) => item.canonical),
      )
    ).map((row) => [row.id, row]),
  );
  const processed: PurgedAsset[] = [];
  const keys: string[] = [];
  const audit: AuditEntry[] = [];
  for (const { id, canonical } of valid) {
    const row = removed.get(canonical);
    const item: PurgedAsset = row
      ? { id, asset_type: row.assetType, found_in_db: true, guild_id: row.guildId }
      : { id, asset_type: 'unknown', found_in_db: false, guild_id: null };
    processed.push(item);
    keys.push(...(row ? [row.storageKey] : [storageKeys.emoji(id), storageKeys.sticker(id)]));
    const metadata: Record<string, string> = {
      asset_type: item.asset_type,
      ...(item.guild_id ? { guild_id: item.guild_id } : {}),
    };
    audit.push({ ...AUDIT_BY_TYPE[item.asset_type]!, targetId: id, metadata });
  }
  return { removal: { processed, errors }, keys, audit };
}

/** Every stored image of the guild (docs/decisions.md#asset-purges), one audit entry with the counts by type. */
async function purgeGuild(client: PoolClient, guildId: string): Promise<Purged> {
  const removed = await deleteGuildAssets(client, guildId);
  const processed = removed.map(
    (row): PurgedAsset => ({ id: row.id, asset_type: row.assetType, found_in_db: true, guild_id: guildId }),
  );
  const keys = removed.map((row) =>
    row.avatarHash ? storageKeys.webhookAvatar(row.id, row.avatarHash) : row.storageKey,
  );
  const counts: Record<string, string> = { asset_count: String(removed.length) };
  for (const row of removed)
    counts[`${row.assetType}_count`] = String(Number(counts[`${row.assetType}_count`] ?? 0) + 1);
  const audit: AuditEntry[] = [
    { targetType: 'guild', targetId: guildId, action: 'purge_guild_assets', metadata: counts },
  ];
  return { removal: { processed, errors: [] }, keys, audit };
}
