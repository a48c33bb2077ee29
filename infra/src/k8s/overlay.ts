import { renderKustomization } from '../kustomize/render.ts';
import { OVERLAYS, SECRET_EXAMPLE, SECRET_NAME, type OverlayName } from '../paths.ts';
import { processKind, type ProcessKind } from '../process-kinds.ts';
import { containerEnv, readSecretExample, type ResolvedEnv, type SecretValues } from './env.ts';
import type { K8sObject } from './objects.ts';

export interface RenderedOverlay {
  name: OverlayName;
  objects: K8sObject[];
  /** The Secrets an operator creates, with the example values (SECRET_EXAMPLE), its optional keys left out. */
  secrets: SecretValues;
  /** The example Secret's optional keys, with their example values. */
  optionalSecretKeys: Record<string, string>;
}

export async function renderOverlay(name: OverlayName): Promise<RenderedOverlay> {
  const [objects, secret] = await Promise.all([renderKustomization(OVERLAYS[name]), readSecretExample(SECRET_EXAMPLE)]);
  return { name, objects, secrets: { [SECRET_NAME]: secret.values }, optionalSecretKeys: secret.optional };
}

/** A Deployment or Job of a Switchboard process, with the process it runs. */
export interface Workload {
  object: K8sObject;
  kind: ProcessKind;
}

/** Every Deployment and Job, each named after the process kind it runs (throws for another name). */
export function workloadsOf(overlay: RenderedOverlay): Workload[] {
  return overlay.objects
    .filter((object) => object.kind === 'Deployment' || object.kind === 'Job')
    .map((object) => ({ object, kind: processKind(object.metadata.name) }));
}

/** The environment the workload's process starts with (its container named after it), with `secrets` given. */
export function workloadEnv(
  overlay: RenderedOverlay,
  workload: Workload,
  secrets: SecretValues = overlay.secrets,
): ResolvedEnv {
  return containerEnv(workload.object, workload.object.metadata.name, overlay.objects, secrets);
}
