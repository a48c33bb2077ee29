import { ScaledObject, type IScaledObject } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import { Deployment, type IDeployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler, type IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job, type IJob } from 'kubernetes-models/batch/v1';
import { PodDisruptionBudget, type IPodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Secret, Service, type IConfigMap, type ISecret, type IService } from 'kubernetes-models/v1';

/**
 * The kinds the manifests may hold, by `apiVersion/kind`, with their Kubernetes types. The
 * compiler reads this interface to find each kind's fields (unknown-fields.ts): a kind added to
 * the manifests is added here first, or the check refuses it.
 */
export interface ManifestKinds {
  'v1/ConfigMap': IConfigMap;
  'v1/Secret': ISecret;
  'v1/Service': IService;
  'apps/v1/Deployment': IDeployment;
  'batch/v1/Job': IJob;
  'policy/v1/PodDisruptionBudget': IPodDisruptionBudget;
  'autoscaling/v2/HorizontalPodAutoscaler': IHorizontalPodAutoscaler;
  'keda.sh/v1alpha1/ScaledObject': IScaledObject;
}

export type ManifestKind = keyof ManifestKinds;

interface ValidatingModel {
  validate(): void;
}

/** Each kind's model: its `validate()` checks an object against the kind's OpenAPI schema. */
export const MODELS: Record<ManifestKind, new (data: never) => ValidatingModel> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'batch/v1/Job': Job,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'keda.sh/v1alpha1/ScaledObject': ScaledObject,
};

export function isManifestKind(type: string): type is ManifestKind {
  return Object.hasOwn(MODELS, type);
}
