export { createBatcher, type BatcherOptions } from './batcher.ts';
