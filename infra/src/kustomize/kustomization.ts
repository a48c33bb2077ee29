import { z } from '@switchboard/config';

/** A patch's target: which objects it applies to (kustomize's selector, exact names only). */
const targetSchema = z.strictObject({
  group: z.string().optional(),
  version: z.string().optional(),
  kind: z.string().optional(),
  name: z.string().optional(),
  /** `key=value` pairs, comma-separated: the equality form of a label selector. */
  labelSelector: z.string().optional(),
});

export type PatchTarget = z.infer<typeof targetSchema>;

/**
 * The part of kustomize's Kustomization this renderer implements. Any other field (generators,
 * replacements, components, name prefixes, `includeSelectors` …) is refused when the file is
 * read, so a manifest can never use a feature the offline check would silently skip.
 */
export const kustomizationSchema = z.strictObject({
  apiVersion: z.literal('kustomize.config.k8s.io/v1beta1'),
  kind: z.literal('Kustomization'),
  /** Files of objects, or folders holding a kustomization.yaml, relative to this one. */
  resources: z.array(z.string().min(1)).default([]),
  namespace: z.string().min(1).optional(),
  labels: z
    .array(
      z.strictObject({
        pairs: z.record(z.string(), z.string()),
        includeTemplates: z.boolean().default(false),
      }),
    )
    .default([]),
  images: z
    .array(
      z.strictObject({
        name: z.string().min(1),
        newName: z.string().min(1).optional(),
        newTag: z.string().min(1).optional(),
        digest: z.string().min(1).optional(),
      }),
    )
    .default([]),
  /** A strategic merge patch (an object, matched by its kind and name) or a JSON patch (a list, with a target). */
  patches: z
    .array(
      z
        .strictObject({
          path: z.string().min(1).optional(),
          patch: z.string().min(1).optional(),
          target: targetSchema.optional(),
        })
        .refine((entry) => (entry.path === undefined) !== (entry.patch === undefined), 'give either path or patch'),
    )
    .default([]),
});

export type Kustomization = z.infer<typeof kustomizationSchema>;
