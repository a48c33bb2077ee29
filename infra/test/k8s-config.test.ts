import { describe, expect, it } from 'vitest';
import { valueAt } from '../src/json.ts';
import { idOf, podSpecOf } from '../src/k8s/objects.ts';
import { renderOverlay, workloadEnv, workloadsOf, type Workload } from '../src/k8s/overlay.ts';
import { mainContainer, portNumber, preStopMs, PROBE_KINDS } from '../src/k8s/pods.ts';
import { OVERLAYS, SECRET_NAME, type OverlayName } from '../src/paths.ts';

// Each process's environment as its pod would have it (ConfigMaps, the Secret's documented
// keys, env entries), parsed by the process's own zod schema; and what the schema's values
// mean for the pod: where the probes must knock, how long SIGTERM may take.

/** What each probe must ask: liveness never touches a dependency; readiness does. */
const PROBE_PATHS = { startupProbe: '/healthz', livenessProbe: '/healthz', readinessProbe: '/readyz' } as const;

describe.each(Object.keys(OVERLAYS) as OverlayName[])('overlay %s', async (name) => {
  const overlay = await renderOverlay(name);
  const workloads = workloadsOf(overlay);

  /** The workload's config, parsed by its own schema; the test fails with the schema's problems. */
  function config(workload: Workload): Record<string, unknown> {
    const parsed = workload.kind.parse(workloadEnv(overlay, workload).values);
    if (!parsed.ok) throw new Error(`${idOf(workload.object)}: ${parsed.problems.join('; ')}`);
    return parsed.config;
  }

  it.each(workloads.map((workload) => [workload.kind.name, workload] as const))(
    '%s: sets every variable its schema requires, only variables it reads, all accepted',
    (_kind, workload) => {
      const { values, sources } = workloadEnv(overlay, workload);
      const missing = workload.kind.required.filter(
        (variable) => values[variable] === undefined && values[`${variable}_FILE`] === undefined,
      );
      expect(missing, 'required by the schema, set by no ConfigMap, Secret or env entry').toEqual([]);
      const unread = Object.keys(values)
        .filter((variable) => !workload.kind.variables.includes(variable))
        .map((variable) => `${variable} (${sources[variable]})`);
      expect(unread, 'set, but not read by the schema: a typo or a leftover').toEqual([]);
      expect(workload.kind.parse(values)).toMatchObject({ ok: true });
      // Kubernetes would add <SERVICE>_PORT, … for every Service of the namespace otherwise.
      expect(podSpecOf(workload.object)['enableServiceLinks']).toBe(false);
    },
  );

  it.each(workloads.map((workload) => [workload.kind.name, workload] as const))(
    "%s: starts with the Secret's optional keys all set, or none (S3: the AWS credential chain)",
    (_kind, workload) => {
      const secret = overlay.secrets[SECRET_NAME]!;
      const optional = overlay.optionalSecretKeys;
      const optionalRefs = (valueAt(workload.object, ['spec', 'template', 'spec', 'containers', 0, 'env']) ?? []) as {
        valueFrom?: { secretKeyRef?: { key: string; optional?: boolean } };
      }[];
      const optionalKeys = optionalRefs.flatMap((entry) =>
        entry.valueFrom?.secretKeyRef?.optional ? [entry.valueFrom.secretKeyRef.key] : [],
      );
      const without = Object.fromEntries(Object.entries(secret).filter(([key]) => !optionalKeys.includes(key)));
      for (const variant of [without, { ...secret, ...optional }]) {
        const { values } = workloadEnv(overlay, workload, { [SECRET_NAME]: variant });
        expect(workload.kind.parse(values), Object.keys(variant).join(', ')).toMatchObject({ ok: true });
      }
    },
  );

  const servers = workloads.filter((workload) => workload.kind.server !== undefined);

  it.each(servers.map((workload) => [workload.kind.name, workload] as const))(
    '%s: probes its own health paths on the port it listens on, on every interface',
    (_kind, workload) => {
      const server = workload.kind.server!;
      const parsed = config(workload);
      const container = mainContainer(workload.object);
      const listening = Number(parsed[server.portVariable]);
      expect(parsed[server.hostVariable], `${server.hostVariable}: the kubelet is not on the pod's loopback`).toBe(
        '0.0.0.0',
      );
      for (const kind of PROBE_KINDS) {
        const probe = container[kind];
        expect(probe?.httpGet, `${kind}`).toBeDefined();
        expect(probe!.httpGet!.path, kind).toBe(PROBE_PATHS[kind]);
        expect(portNumber(container, probe!.httpGet!.port), `${kind} port`).toBe(listening);
      }
      // /readyz answers within READY_CHECK_TIMEOUT_MS (its checks run in parallel, each bounded):
      // a probe that gives up sooner reports a timeout where the answer would have said what failed.
      expect(container.readinessProbe!.timeoutSeconds * 1000).toBeGreaterThan(Number(parsed['READY_CHECK_TIMEOUT_MS']));
      const annotations = valueAt(workload.object, ['spec', 'template', 'metadata', 'annotations']) as Record<
        string,
        string
      >;
      expect(annotations).toMatchObject({ 'prometheus.io/port': String(listening), 'prometheus.io/path': '/metrics' });
    },
  );

  it.each(servers.map((workload) => [workload.kind.name, workload] as const))(
    '%s: gives SIGTERM longer than preStop and its own shutdown bound',
    (_kind, workload) => {
      const grace = valueAt(workload.object, ['spec', 'template', 'spec', 'terminationGracePeriodSeconds']);
      expect(typeof grace).toBe('number');
      const needed =
        preStopMs(mainContainer(workload.object)) + workload.kind.server!.shutdownBoundMs(config(workload));
      expect((grace as number) * 1000, `preStop + shutdown bound = ${needed} ms`).toBeGreaterThan(needed);
    },
  );
});
