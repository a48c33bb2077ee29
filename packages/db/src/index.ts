export { createPool, withTransaction, type Pool, type PoolClient, type Queryable } from './pool.ts';
export { migrate, readMigrations, type MigrationFile } from './migrate.ts';
