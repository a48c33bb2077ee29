import { parseSnowflake } from '@switchboard/snowflake';

/** An operation id in a path: a decimal snowflake, else null (which no operation has: 404). */
export function operationIdFromPath(value: unknown): string | null {
  if (typeof value !== 'string' || !/^[0-9]{1,20}$/.test(value)) return null;
  return parseSnowflake(value)?.toString() ?? null;
}
