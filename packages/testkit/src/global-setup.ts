import type { TestProject } from 'vitest/node';
import { prepareTemplateDatabase } from './isolation.ts';
import { startTestServices } from './services/index.ts';

import './provided-context.ts';

/** Vitest global setup: resolve the real services once per run and share them with every file. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = await startTestServices();
  try {
    const template = await prepareTemplateDatabase(started.services.databaseUrl);
    project.provide('services', started.services);
    project.provide('templateDatabase', template.name);
    return async () => {
      await template.drop();
      await started.stop();
    };
  } catch (error) {
    await started.stop();
    throw error;
  }
}
