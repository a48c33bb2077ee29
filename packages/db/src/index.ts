export {
  createPool,
  poolModeOptions,
  type PoolOptions,
  createSessionClient,
  currentTransactionId,
  releaseAfter,
  withTransaction,
  inOneSnapshot,
  type TransactionOptions,
  type Pool,
  type PoolClient,
  type Queryable,
  type SessionClient,
} from './pool.ts';
export { isConnectionFailure, isDatabaseUnavailable, isRowError } from './errors.ts';
export { migrate, readMigrations, type MigrationFile } from './migrate.ts';
export {
  NO_SECRET_KEYS,
  openWebhookSecret,
  sealWebhookSecret,
  secretKeyId,
  secretKeyring,
  type SecretKeyring,
  type StoredSecret,
} from './secrets.ts';
export * from './repositories/admin-users.ts';
export * from './repositories/admin-api-keys.ts';
export * from './repositories/audit-logs.ts';
export * from './repositories/bans.ts';
export * from './repositories/ip-ban-index.ts';
export * from './repositories/users.ts';
export * from './repositories/user-tokens.ts';
export * from './repositories/guilds.ts';
export * from './repositories/channels.ts';
export * from './repositories/roles.ts';
export * from './repositories/members.ts';
export * from './repositories/messages.ts';
export * from './repositories/guild-expressions.ts';
export * from './repositories/webhooks.ts';
export * from './repositories/webhook-messages.ts';
export * from './repositories/asset-purges.ts';
export * from './repositories/bulk-members.ts';
export * from './repositories/archives.ts';
export { databaseConnections, type DatabaseConnections } from './connection-census.ts';
