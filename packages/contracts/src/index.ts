export * from './errors.ts';
export * from './limits.ts';
export * from './jobs.ts';
export * from './primitives.ts';
export * from './rate-limits.ts';
export * from './admin-routes.ts';
