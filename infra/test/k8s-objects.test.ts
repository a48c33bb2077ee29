import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { valueAt } from '../src/json.ts';
import { parseImage } from '../src/kustomize/transformers.ts';
import { idOf, objectsOfKind, templateLabelsOf, type K8sObject } from '../src/k8s/objects.ts';
import { renderOverlay, workloadsOf, type RenderedOverlay } from '../src/k8s/overlay.ts';
import { containersOf, mainContainer, portNumber } from '../src/k8s/pods.ts';
import { schemaProblems } from '../src/k8s/schema.ts';
import { unknownFields } from '../src/k8s/unknown-fields.ts';
import { OVERLAYS, REPO_ROOT, SECRET_NAME, type OverlayName } from '../src/paths.ts';
import { PROCESS_KINDS } from '../src/process-kinds.ts';

// Every object of each overlay against its kind's Kubernetes schema (unknown fields included),
// and the references between them: what selects what, what scales what, which Secret keys.
const overlays = Object.fromEntries(
  await Promise.all(Object.keys(OVERLAYS).map(async (name) => [name, await renderOverlay(name as OverlayName)])),
) as Record<OverlayName, RenderedOverlay>;

/** Whether `selector` (matchLabels or a Service's map) picks pods with `labels`. */
function selects(selector: Record<string, string>, labels: Record<string, string>): boolean {
  return Object.entries(selector).every(([key, value]) => labels[key] === value);
}

function deploymentsSelectedBy(overlay: RenderedOverlay, selector: Record<string, string>): K8sObject[] {
  return objectsOfKind(overlay.objects, 'Deployment').filter((deployment) =>
    selects(selector, templateLabelsOf(deployment)),
  );
}

describe.each(Object.keys(OVERLAYS) as OverlayName[])('overlay %s', (name) => {
  const overlay = overlays[name];

  it('holds only valid objects of known kinds, with no field their kind lacks', () => {
    const problems = overlay.objects.flatMap((object) => [...schemaProblems(object), ...unknownFields(object)]);
    expect(problems).toEqual([]);
    expect(overlay.objects.every((object) => object.metadata.namespace === 'switchboard')).toBe(true);
  });

  it('runs every process kind, each with its own command and entry', () => {
    const workloads = workloadsOf(overlay);
    expect(workloads.map((workload) => workload.kind.name).sort()).toEqual(
      PROCESS_KINDS.map((kind) => kind.name).sort(),
    );
    for (const { object, kind } of workloads) {
      expect(object.kind, kind.name).toBe(kind.server ? 'Deployment' : 'Job');
      expect(containersOf(object).map((container) => container.name)).toEqual([kind.name]);
      expect(mainContainer(object).command, kind.name).toEqual(kind.command);
      const entry = kind.command.find((part) => part.endsWith('.ts'));
      expect(entry && existsSync(join(REPO_ROOT, entry)), `${kind.name}: ${entry}`).toBe(true);
    }
  });

  it('gives every container the overlay image, tagged or pinned', () => {
    const images = new Set(
      workloadsOf(overlay).flatMap(({ object }) => containersOf(object).map((container) => container.image)),
    );
    expect(images.size).toBe(1);
    const [image] = images;
    const { tag, digest } = parseImage(image!);
    expect(tag ?? digest, image).toBeDefined();
    expect(tag, image).not.toBe('latest');
  });

  it('selects each Deployment by its own labels, from its Service and its PodDisruptionBudget', () => {
    for (const deployment of objectsOfKind(overlay.objects, 'Deployment')) {
      const matchLabels = valueAt(deployment, ['spec', 'selector', 'matchLabels']) as Record<string, string>;
      expect(selects(matchLabels, templateLabelsOf(deployment)), idOf(deployment)).toBe(true);
      // No Deployment's pods are selected by another's selector: a rollout would adopt them.
      expect(deploymentsSelectedBy(overlay, matchLabels), idOf(deployment)).toEqual([deployment]);
    }
    for (const kind of ['Service', 'PodDisruptionBudget']) {
      const owners = objectsOfKind(overlay.objects, kind).map((object) => {
        const selector = (
          kind === 'Service'
            ? valueAt(object, ['spec', 'selector'])
            : valueAt(object, ['spec', 'selector', 'matchLabels'])
        ) as Record<string, string>;
        const selected = deploymentsSelectedBy(overlay, selector);
        expect(selected, idOf(object)).toHaveLength(1);
        return selected[0]!.metadata.name;
      });
      expect(owners.sort(), kind).toEqual(
        objectsOfKind(overlay.objects, 'Deployment')
          .map((deployment) => deployment.metadata.name)
          .sort(),
      );
    }
  });

  it('points every Service port at a named port of the pods it selects', () => {
    for (const service of objectsOfKind(overlay.objects, 'Service')) {
      const [deployment] = deploymentsSelectedBy(
        overlay,
        valueAt(service, ['spec', 'selector']) as Record<string, string>,
      );
      const ports = valueAt(service, ['spec', 'ports']) as { targetPort: string | number }[];
      for (const { targetPort } of ports) {
        expect(typeof targetPort, idOf(service)).toBe('string');
        expect(portNumber(mainContainer(deployment!), targetPort), `${idOf(service)} → ${targetPort}`).toBeDefined();
      }
    }
  });

  it('reads only the documented Secret, and every key of it', () => {
    const documented = overlay.secrets[SECRET_NAME]!;
    const referenced = new Set<string>();
    for (const { object } of workloadsOf(overlay)) {
      const env = (valueAt(object, ['spec', 'template', 'spec', 'containers', 0, 'env']) ?? []) as {
        valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } };
      }[];
      for (const ref of env.flatMap((entry) => entry.valueFrom?.secretKeyRef ?? [])) {
        expect(ref.name, idOf(object)).toBe(SECRET_NAME);
        // A key the pod cannot start without is in the example; an optional one at least documented there.
        const known = ref.optional ? { ...documented, ...overlay.optionalSecretKeys } : documented;
        expect(Object.keys(known), `${idOf(object)}: ${ref.key}`).toContain(ref.key);
        referenced.add(ref.key);
      }
      const envFrom = (valueAt(object, ['spec', 'template', 'spec', 'containers', 0, 'envFrom']) ?? []) as object[];
      expect(
        envFrom.filter((source) => 'secretRef' in source),
        idOf(object),
      ).toEqual([]);
    }
    expect([...referenced].sort()).toEqual(Object.keys({ ...documented, ...overlay.optionalSecretKeys }).sort());
  });

  it('leaves replicas to the autoscalers, one per autoscaled Deployment', () => {
    const autoscalers = [
      ...objectsOfKind(overlay.objects, 'HorizontalPodAutoscaler'),
      ...objectsOfKind(overlay.objects, 'ScaledObject'),
    ];
    const targets = autoscalers.map((autoscaler) => {
      const target = valueAt(autoscaler, ['spec', 'scaleTargetRef']) as { kind?: string; name: string };
      expect(target.kind ?? 'Deployment', idOf(autoscaler)).toBe('Deployment');
      return target.name;
    });
    expect(new Set(targets).size, 'two autoscalers on one Deployment').toBe(targets.length);
    for (const deployment of objectsOfKind(overlay.objects, 'Deployment')) {
      const scaled = targets.includes(deployment.metadata.name);
      // An applied `replicas` would reset what the autoscaler chose, on every apply.
      if (scaled) expect(valueAt(deployment, ['spec', 'replicas']), idOf(deployment)).toBeUndefined();
    }
    for (const target of targets)
      expect(objectsOfKind(overlay.objects, 'Deployment').map((d) => d.metadata.name)).toContain(target);
  });
});

describe('autoscaling in production', () => {
  const overlay = overlays.production;

  it('scales the gateway on CPU and every worker on its own queue as the gateway exports it', () => {
    const hpas = objectsOfKind(overlay.objects, 'HorizontalPodAutoscaler');
    expect(hpas.map((hpa) => valueAt(hpa, ['spec', 'scaleTargetRef', 'name']))).toEqual(['gateway']);
    expect(valueAt(hpas[0], ['spec', 'minReplicas'])).toBeGreaterThanOrEqual(2);
    const scaled = objectsOfKind(overlay.objects, 'ScaledObject');
    const workers = PROCESS_KINDS.filter((kind) => kind.queue !== undefined);
    expect(scaled.map((object) => valueAt(object, ['spec', 'scaleTargetRef', 'name'])).sort()).toEqual(
      workers.map((kind) => kind.name).sort(),
    );
    for (const kind of workers) {
      const object = scaled.find((candidate) => valueAt(candidate, ['spec', 'scaleTargetRef', 'name']) === kind.name);
      // At least one: a worker also promotes its queue's delayed jobs and runs its schedules.
      expect(valueAt(object, ['spec', 'minReplicaCount']), kind.name).toBeGreaterThanOrEqual(1);
      const triggers = valueAt(object, ['spec', 'triggers']) as { type: string; metadata: Record<string, string> }[];
      expect(triggers, kind.name).toEqual([
        {
          type: 'prometheus',
          metadata: {
            serverAddress: expect.stringMatching(/^https?:\/\//),
            // max: every gateway replica exports the same figure (test/k8s-probes.test.ts reads it).
            query: `max(queue_jobs{queue="${kind.queue}",state="waiting"})`,
            threshold: expect.stringMatching(/^[1-9][0-9]*$/),
          },
        },
      ]);
    }
  });
});

describe('the minimal overlay', () => {
  it('needs neither KEDA nor the metrics server', () => {
    const kinds = new Set(overlays.minimal.objects.map((object) => object.kind));
    expect(kinds.has('ScaledObject') || kinds.has('HorizontalPodAutoscaler')).toBe(false);
  });
});
