import { prepareTemplateDatabase } from '@switchboard/testkit/isolation';
import { provisionEnvironment } from '@switchboard/testkit/environment';
import { startOwnedStore, type StoreKind } from '@switchboard/testkit/owned-store';
import type { ScenarioContext } from '../../types.ts';
import type { FaultSetup } from './proxied.ts';

/**
 * - `freeze`: the store's processes SIGSTOPped, then SIGCONTed: the kernel still accepts
 *   connections into the listen backlog and holds what clients send, nothing answers, then the
 *   store processes everything at once (a stalled VM, a store paused by its host, a long GC).
 * - `restart`: the store killed (Redis: SIGKILL, back on its append-only file; PostgreSQL: a fast
 *   shutdown), then started again on the same port.
 */
export type StoreFault = 'freeze' | 'restart';

/**
 * The scenario's own store of `kind` in place of the run's shared one (which must never be
 * frozen or killed), with a database, prefix and bucket on it as every scenario gets.
 */
export async function ownedStoreFault(
  { services, template }: ScenarioContext,
  kind: StoreKind,
  fault: StoreFault,
): Promise<FaultSetup> {
  const store = await startOwnedStore(kind);
  try {
    const ownServices = store.services(services);
    // A PostgreSQL of its own needs the migrated template the shared one has.
    const ownTemplate = kind === 'postgres' ? await prepareTemplateDatabase(ownServices.databaseUrl) : undefined;
    const environment = await provisionEnvironment(ownServices, { template: ownTemplate?.name ?? template });
    return {
      environment,
      processEnv: environment.processEnv,
      begin: fault === 'freeze' ? store.freeze : store.kill,
      end: fault === 'freeze' ? store.thaw : store.restart,
      describe: (outageMs) =>
        fault === 'freeze'
          ? `${kind} process SIGSTOPped ${outageMs / 1000} s, then SIGCONTed`
          : `${kind} ${kind === 'redis' ? 'SIGKILLed' : 'shut down'}, started again ${outageMs / 1000} s later`,
      close: async () => {
        await environment.release().catch(() => {});
        await ownTemplate?.drop().catch(() => {});
        await store.stop();
      },
    };
  } catch (error) {
    await store.stop();
    throw error;
  }
}
