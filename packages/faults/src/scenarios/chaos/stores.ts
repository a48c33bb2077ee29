import { prepareTemplateDatabase } from '@switchboard/testkit/isolation';
import { provisionEnvironment, type TestEnvironment } from '@switchboard/testkit/environment';
import { startOwnedStore, type OwnedStore } from '@switchboard/testkit/owned-store';
import type { ScenarioContext } from '../../types.ts';
import type { ChaosStore } from './schedule.ts';

export interface ChaosStores {
  byKind: Record<ChaosStore, OwnedStore>;
  environment: TestEnvironment;
  close(): Promise<void>;
}

/**
 * A PostgreSQL, a Redis and an S3 store of the scenario's own (the run's shared ones are never
 * frozen or killed), with a database, prefix and bucket on them as every scenario gets.
 */
export async function startChaosStores({ services }: ScenarioContext): Promise<ChaosStores> {
  const started: OwnedStore[] = [];
  const stopAll = () => Promise.all(started.map((store) => store.stop()));
  try {
    for (const kind of ['postgres', 'redis', 's3'] as const) started.push(await startOwnedStore(kind));
    const [postgres, redis, s3] = started as [OwnedStore, OwnedStore, OwnedStore];
    const own = s3.services(redis.services(postgres.services(services)));
    const template = await prepareTemplateDatabase(own.databaseUrl);
    const environment = await provisionEnvironment(own, { template: template.name });
    return {
      byKind: { postgres, redis, s3 },
      environment,
      close: async () => {
        await environment.release().catch(() => {});
        await template.drop().catch(() => {});
        await stopAll();
      },
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
