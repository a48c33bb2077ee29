import type { Pool, SecretKeyring } from '@switchboard/db';
import type { Logger } from '@switchboard/logger';
import type { Registry } from '@switchboard/metrics';
import type { Producer } from '@switchboard/queue';
import type { SnowflakeGenerator, SnowflakeLease } from '@switchboard/snowflake';
import type { Storage } from '@switchboard/storage';
import type { AdminKeys } from './admin-auth/key-cache.ts';
import type { ChangeFeed } from './change-feed.ts';
import type { GatewayConfig } from './config.ts';
import type { IpBans } from './ip-bans/index.ts';
import type { RedisClient } from '@switchboard/redis';

/**
 * Everything a gateway router or admin area may use, built once by createApp. Routers take the
 * whole bag and destructure what they need; none defines a bag of its own.
 */
export interface GatewayDeps {
  config: GatewayConfig;
  logger: Logger;
  pool: Pool;
  /** A request-path client (`createRedis(url, { role: 'client' })`): fails fast, never queues. */
  redis: RedisClient;
  storage: Storage;
  /** Enqueues jobs. Its `?wait=true` listener connects on first use. */
  producer: Producer;
  /** Snowflake ids under this process's leased worker id; 503 SERVICE_UNAVAILABLE while it holds none. */
  ids: SnowflakeGenerator;
  /** The worker-id lease behind `ids` (its state is a readiness check). */
  snowflakeLease: SnowflakeLease;
  /** The admin keys requests authenticate with, cached while provably current (admin-auth/key-cache.ts). */
  adminKeys: AdminKeys;
  /**
   * What proves cached credentials current (change-feed.ts); null when CREDENTIAL_CACHE_LEASE_MS
   * is 0 and nothing is cached. A route that changes a credential commits through
   * commitCredentialChange, which waits for every process to apply it.
   */
  changeFeed: ChangeFeed | null;
  /** The keys webhook secrets are sealed and opened with (docs/decisions.md#secrets-encrypted-at-rest). */
  secrets: SecretKeyring;
  /** This replica's live IP bans: enforcement and checks read them, adds and removes publish. */
  ipBans: IpBans;
  /** This process's Prometheus registry (`/metrics`). */
  metrics: Registry;
  /** True once graceful shutdown began; /readyz then answers 503. */
  isDraining: () => boolean;
}
