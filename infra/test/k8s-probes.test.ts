import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '@switchboard/testkit/http';
import { metricValue, scrapeMetrics } from '@switchboard/testkit/metrics';
import { spawnNode, spawnService, type ServiceProcess } from '@switchboard/testkit/processes';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { waitFor } from '@switchboard/testkit/wait';
import { valueAt } from '../src/json.ts';
import { objectsOfKind } from '../src/k8s/objects.ts';
import { renderOverlay, workloadEnv, workloadsOf, type Workload } from '../src/k8s/overlay.ts';
import { mainContainer, PROBE_KINDS } from '../src/k8s/pods.ts';
import { REPO_ROOT } from '../src/paths.ts';

// Every process of the production overlay started as its pod starts it (its command, its
// environment from the manifests) with only the stores, the listening port and NODE_ENV swapped
// for the test's, then asked what the kubelet, Prometheus and KEDA will ask it.
const environment = useTestEnvironment();
const overlay = await renderOverlay('production');
const workloads = workloadsOf(overlay);
const servers = workloads.filter((workload) => workload.kind.server !== undefined);
const running = new Map<string, { process: ServiceProcess; port: number }>();

/** The variables naming this file's own database, Redis prefix and bucket. */
const STORE_VARIABLES = [
  'DATABASE_URL',
  'REDIS_URL',
  'REDIS_PREFIX',
  'EVENTS_STREAM_KEY',
  'S3_ENDPOINT',
  'S3_REGION',
  'S3_BUCKET',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'S3_FORCE_PATH_STYLE',
];

/** The manifest's environment, with the stores (and for a server, port 0) the test's own. */
function testEnv(workload: Workload): Record<string, string> {
  const stores = environment.processEnv();
  const env = { ...workloadEnv(overlay, workload).values };
  for (const variable of STORE_VARIABLES) {
    if (workload.kind.variables.includes(variable)) env[variable] = stores[variable]!;
  }
  if (workload.kind.server) env[workload.kind.server.portVariable] = '0';
  // The test's S3 store takes only the development key, which NODE_ENV=production refuses.
  if (workload.kind.variables.includes('NODE_ENV')) env['NODE_ENV'] = 'test';
  return env;
}

/** `node <flags> <entry> <args>` from the container's command. */
function splitCommand(command: readonly string[]) {
  const entryIndex = command.findIndex((part) => part.endsWith('.ts'));
  return { nodeFlags: command.slice(1, entryIndex), entry: command[entryIndex]!, args: command.slice(entryIndex + 1) };
}

beforeAll(async () => {
  await Promise.all(
    servers.map(async (workload) => {
      const { nodeFlags, entry } = splitCommand(mainContainer(workload.object).command!);
      const process = await spawnService(entry, testEnv(workload), { nodeFlags });
      running.set(workload.kind.name, { process, port: Number(process.ready['port'] ?? process.ready['healthPort']) });
    }),
  );
});

afterAll(async () => {
  await Promise.all([...running.values()].map(({ process }) => process.stop('SIGKILL')));
});

function url(workload: Workload, path: string): string {
  return `http://127.0.0.1:${running.get(workload.kind.name)!.port}${path}`;
}

describe('the production overlay, run', () => {
  it.each(servers.map((workload) => [workload.kind.name, workload] as const))(
    '%s answers 200 on every path its probes ask',
    async (_kind, workload) => {
      const container = mainContainer(workload.object);
      for (const kind of PROBE_KINDS) {
        const path = container[kind]!.httpGet!.path;
        // Readiness waits for the first IP-ban load (gateway) and the stores' first answers.
        const status = await waitFor(async () => {
          const answer = await call('GET', url(workload, path));
          return answer.status === 200 && answer.status;
        }, 20_000);
        expect(status, `${kind} ${path}`).toBe(200);
      }
    },
  );

  it.each(servers.map((workload) => [workload.kind.name, workload] as const))(
    '%s serves its metrics where its scrape annotations point',
    async (_kind, workload) => {
      const annotations = valueAt(workload.object, ['spec', 'template', 'metadata', 'annotations']) as Record<
        string,
        string
      >;
      const { samples } = await scrapeMetrics(url(workload, annotations['prometheus.io/path']!));
      if (workload.kind.queue) {
        expect(metricValue(samples, 'queue_jobs', { queue: workload.kind.queue, state: 'waiting' })).toBe(0);
      }
    },
  );

  it("exports, on the gateway, the series every ScaledObject's query reads", async () => {
    const gateway = servers.find((workload) => workload.kind.name === 'gateway')!;
    const { samples } = await scrapeMetrics(url(gateway, '/metrics'));
    const queries = objectsOfKind(overlay.objects, 'ScaledObject').map(
      (object) => valueAt(object, ['spec', 'triggers', 0, 'metadata', 'query']) as string,
    );
    expect(queries).toHaveLength(4);
    for (const query of queries) {
      const selector = /^max\(queue_jobs\{queue="([^"]+)",state="waiting"\}\)$/.exec(query);
      expect(selector, query).not.toBeNull();
      expect(metricValue(samples, 'queue_jobs', { queue: selector![1]!, state: 'waiting' }), query).toBe(0);
    }
  });

  it('runs the migrate Job as its pod would: no migration left to apply', async () => {
    const migrate = workloads.find((workload) => workload.kind.name === 'migrate')!;
    const { nodeFlags, entry, args } = splitCommand(mainContainer(migrate.object).command!);
    const cli = spawnNode(entry, { env: testEnv(migrate), nodeFlags, args, cwd: REPO_ROOT });
    const status = await cli.exit;
    expect(status, cli.output()).toEqual({ code: 0, signal: null });
    expect(JSON.parse(cli.stdout())).toMatchObject({ applied: [], secrets_resealed: 0 });
  });

  it.each(servers.map((workload) => [workload.kind.name, workload] as const))(
    '%s stops on SIGTERM with code 0 well within its grace period',
    async (_kind, workload) => {
      const grace = valueAt(workload.object, ['spec', 'template', 'spec', 'terminationGracePeriodSeconds']) as number;
      const { process } = running.get(workload.kind.name)!;
      const started = Date.now();
      const status = await process.stop('SIGTERM');
      expect(status, process.output()).toEqual({ code: 0, signal: null });
      expect(Date.now() - started).toBeLessThan(grace * 1000);
    },
  );
});
