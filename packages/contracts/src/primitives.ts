import { z } from 'zod';
import { snowflakeText } from '@switchboard/snowflake/ids';

const INVALID_SNOWFLAKE = {
  code: 'custom',
  message: 'Value is not a valid snowflake.',
  params: { code: 'INVALID_SNOWFLAKE_FORMAT' },
} as const;

/**
 * A snowflake id (docs/decisions.md#snowflake-ids): accepted as a decimal string or a safe integer, always
 * produced as a decimal string. Any other value (wrong type included) fails with one issue
 * whose item code is `INVALID_SNOWFLAKE_FORMAT`.
 */
// Typed as string | number for callers, but every value reaches the transform so that a wrong
// type gets the same snowflake issue as a malformed string.
export const snowflakeSchema = z
  .custom<string | number>(() => true)
  .transform((value, ctx) => {
    const id = snowflakeText(value);
    if (id === null) {
      ctx.issues.push({ ...INVALID_SNOWFLAKE, input: value });
      return z.NEVER;
    }
    return id;
  });

export type Snowflake = string;
