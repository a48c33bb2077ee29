import type { Redis } from 'ioredis';
import type { Pool } from '@switchboard/db';
import type { Logger } from '@switchboard/logger';
import type { SnowflakeGenerator } from '@switchboard/snowflake';
import type { Storage } from '@switchboard/storage';
import type { GatewayConfig } from '../../config.ts';

/** What the webhook management routes need. */
export interface WebhookRouteDeps {
  config: GatewayConfig;
  logger: Logger;
  pool: Pool;
  /** A request-path client (`createRedis(url, { role: 'client' })`). */
  redis: Redis;
  storage: Storage;
  ids: SnowflakeGenerator;
}
