import type { TestProject } from 'vitest/node';
import { prepareTemplateDatabase } from './isolation.ts';
import { startTestServices, type TestServices } from './services.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    services: TestServices;
  }
}

/** Vitest global setup: resolve the real services once per run and share them with every file. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = await startTestServices();
  await prepareTemplateDatabase(started.services.databaseUrl);
  project.provide('services', started.services);
  return started.stop;
}
