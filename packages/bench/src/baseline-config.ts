import { commonSchema } from '@switchboard/config';

/** What a same-work baseline process reads of the run's environment: the stores, as our services read them. */
export const baselineStoresSchema = commonSchema.pick({
  DATABASE_URL: true,
  DATABASE_POOL_SIZE: true,
  REDIS_URL: true,
  REDIS_PREFIX: true,
});
