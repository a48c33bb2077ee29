import './provided-context.ts';
export { startTestServices, type TestServices, type StartedServices } from './services.ts';
export { startLocalS3 } from './local-s3.ts';
export { createTestDatabase, prepareTemplateDatabase, uniqueTag } from './isolation.ts';
export { useTestEnvironment, type TestEnvironment } from './environment.ts';
export { closedPort, serveOnFreePort, silentServer, type Listenable, type ServedApp } from './network.ts';
export { isAlive, spawnNode, type NodeProcess, type NodeProcessOptions } from './processes.ts';
export { useTestPool } from './pool.ts';
export { storageFor } from './storage.ts';
