import { snowflakeText } from '@switchboard/snowflake';

/**
 * An id in a path (an API key, a purge, a bulk operation): a decimal snowflake within bigint
 * range, else null — which names nothing, so the route answers its 404 rather than a 400.
 */
export function snowflakeFromPath(value: unknown): string | null {
  if (typeof value !== 'string' || !/^[0-9]{1,20}$/.test(value)) return null;
  return snowflakeText(value);
}
