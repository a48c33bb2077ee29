export { createBatcher, type BatcherOptions } from './batcher.ts';
export { InFlight } from './in-flight.ts';
