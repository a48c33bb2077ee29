import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasKubectl, kubectlKustomize } from '../src/kustomize/kubectl.ts';
import { renderKustomization } from '../src/kustomize/render.ts';
import { valueAt } from '../src/json.ts';
import { idOf, type K8sObject } from '../src/k8s/objects.ts';
import { OVERLAYS } from '../src/paths.ts';

// The renderer the manifest checks read the overlays with: each feature on a small tree of
// its own, and wherever kubectl is on PATH, every tree and both overlays against `kubectl kustomize`.
const kubectl = await hasKubectl();
let root: string;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'switchboard-kustomize-'));
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Writes `files` (path → text) under a fresh folder and returns it. */
async function tree(name: string, files: Record<string, string>): Promise<string> {
  const folder = join(root, name);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(folder, path)), { recursive: true });
    await writeFile(join(folder, path), text);
  }
  return folder;
}

function byId(objects: readonly K8sObject[]): Map<string, K8sObject> {
  return new Map(objects.map((object) => [idOf(object), object]));
}

/** The objects kubectl renders that ours lack or render differently, by id; empty when they agree. */
async function disagreements(folder: string): Promise<string[]> {
  const ours = byId(await renderKustomization(folder));
  const theirs = byId(await kubectlKustomize(folder));
  const ids = new Set([...ours.keys(), ...theirs.keys()]);
  return [...ids]
    .filter((id) => !isDeepStrictEqual(ours.get(id), theirs.get(id)))
    .map((id) => `${id}\n  ours:    ${JSON.stringify(ours.get(id))}\n  kubectl: ${JSON.stringify(theirs.get(id))}`);
}

const KUSTOMIZATION = 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n';

const DEPLOYMENT = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: app
  labels:
    app: app
spec:
  selector:
    matchLabels:
      app: app
  template:
    metadata:
      labels:
        app: app
    spec:
      initContainers:
        - name: init
          image: registry.local:5000/tools:1.0
      containers:
        - name: app
          image: app
          args: ["--a", "--b"]
          env:
            - name: KEEP
              value: "1"
            - name: CHANGE
              value: before
          resources:
            requests:
              cpu: 100m
        - name: sidecar
          image: app:old@sha256:0000000000000000000000000000000000000000000000000000000000000000
`;

const CONFIG = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
data:
  A: "1"
  B: "2"
`;

const BASE = {
  'base/kustomization.yaml': `${KUSTOMIZATION}labels:\n  - pairs:\n      part-of: demo\n    includeTemplates: true\nresources:\n  - app.yaml\n  - config.yaml\n`,
  'base/app.yaml': DEPLOYMENT,
  'base/config.yaml': CONFIG,
};

describe('the kustomize renderer', () => {
  it('renders folders and files with namespace, labels (templates too, never selectors) and images', async () => {
    const folder = await tree('transformers', {
      ...BASE,
      'overlay/kustomization.yaml': `${KUSTOMIZATION}namespace: demo
resources:
  - ../base
  - extra.yaml
labels:
  - pairs:
      tier: top
images:
  - name: app
    newName: registry.example.com/app
    newTag: "2.0"
  - name: registry.local:5000/tools
    digest: sha256:1111111111111111111111111111111111111111111111111111111111111111
`,
      'overlay/extra.yaml': 'apiVersion: v1\nkind: Service\nmetadata:\n  name: app\nspec:\n  selector:\n    app: app\n',
    });
    const objects = byId(await renderKustomization(join(folder, 'overlay')));
    const deployment = objects.get('apps/v1/Deployment demo/app');
    const images = (containers: string) =>
      (valueAt(deployment, ['spec', 'template', 'spec', containers]) as { image: string }[]).map((c) => c.image);
    expect(deployment?.metadata.labels).toEqual({ app: 'app', 'part-of': 'demo', tier: 'top' });
    expect(valueAt(deployment, ['spec', 'selector'])).toEqual({ matchLabels: { app: 'app' } });
    // includeTemplates in the base only.
    expect(valueAt(deployment, ['spec', 'template', 'metadata', 'labels'])).toEqual({ app: 'app', 'part-of': 'demo' });
    expect(images('containers')).toEqual(['registry.example.com/app:2.0', 'registry.example.com/app:2.0']);
    expect(images('initContainers')).toEqual([
      'registry.local:5000/tools@sha256:1111111111111111111111111111111111111111111111111111111111111111',
    ]);
    expect(objects.get('v1/Service demo/app')?.metadata.labels).toEqual({ tier: 'top' });
    expect(objects.get('v1/ConfigMap demo/settings')?.metadata.namespace).toBe('demo');
    if (kubectl) expect(await disagreements(join(folder, 'overlay'))).toEqual([]);
  });

  it('merges a strategic merge patch: maps by key, null removes, containers and env by name, other lists replaced', async () => {
    const folder = await tree('strategic', {
      ...BASE,
      'overlay/kustomization.yaml': `${KUSTOMIZATION}resources:\n  - ../base\npatches:\n  - path: app.yaml\n  - path: settings.yaml\n`,
      'overlay/app.yaml': `apiVersion: apps/v1
kind: Deployment
metadata:
  name: app
spec:
  template:
    spec:
      containers:
        - name: app
          args: ["--c"]
          env:
            - name: CHANGE
              value: after
            - name: NEW
              value: added
          resources:
            requests:
              cpu: null
              memory: 1Gi
        - name: third
          image: other
`,
      'overlay/settings.yaml':
        'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  A: null\n  C: "3"\n',
    });
    const objects = byId(await renderKustomization(join(folder, 'overlay')));
    expect(valueAt(objects.get('apps/v1/Deployment ~/app'), ['spec', 'template', 'spec', 'containers'])).toEqual([
      {
        name: 'app',
        image: 'app',
        args: ['--c'],
        env: [
          { name: 'CHANGE', value: 'after' },
          { name: 'NEW', value: 'added' },
          { name: 'KEEP', value: '1' },
        ],
        resources: { requests: { memory: '1Gi' } },
      },
      { name: 'third', image: 'other' },
      expect.objectContaining({ name: 'sidecar' }),
    ]);
    expect(objects.get('v1/ConfigMap ~/settings')!['data']).toEqual({ B: '2', C: '3' });
    if (kubectl) expect(await disagreements(join(folder, 'overlay'))).toEqual([]);
  });

  it('applies a JSON patch to every object its target selects', async () => {
    const folder = await tree('json-patch', {
      ...BASE,
      'overlay/second.yaml': DEPLOYMENT.replace('name: app\n  labels:\n', 'name: other\n  labels:\n    skip: "yes"\n'),
      'overlay/kustomization.yaml': `${KUSTOMIZATION}resources:\n  - ../base\n  - second.yaml
patches:
  - target:
      kind: Deployment
    patch: |-
      - op: test
        path: /spec/template/spec/containers/0/resources/requests/cpu
        value: 100m
      - op: replace
        path: /spec/template/spec/containers/0/resources/requests
        value:
          cpu: 50m
      - op: add
        path: /spec/template/spec/containers/0/args/-
        value: --z
      - op: remove
        path: /spec/template/spec/initContainers
  - target:
      kind: Deployment
      labelSelector: skip=yes
    patch: |-
      - op: add
        path: /spec/paused
        value: true
`,
    });
    const objects = byId(await renderKustomization(join(folder, 'overlay')));
    for (const name of ['app', 'other']) {
      const deployment = objects.get(`apps/v1/Deployment ~/${name}`);
      expect(valueAt(deployment, ['spec', 'template', 'spec', 'initContainers'])).toBeUndefined();
      expect(valueAt(deployment, ['spec', 'template', 'spec', 'containers', 0])).toMatchObject({
        args: ['--a', '--b', '--z'],
        resources: { requests: { cpu: '50m' } },
      });
      expect(valueAt(deployment, ['spec', 'paused'])).toBe(name === 'other' ? true : undefined);
    }
    if (kubectl) expect(await disagreements(join(folder, 'overlay'))).toEqual([]);
  });

  it('refuses what it does not implement, and patches that reach nothing or fail their test', async () => {
    const cases: Record<string, [string, RegExp]> = {
      generator: [`${KUSTOMIZATION}resources:\n  - ../base\nconfigMapGenerator:\n  - name: x\n`, /configMapGenerator/],
      selectors: [
        `${KUSTOMIZATION}resources:\n  - ../base\nlabels:\n  - pairs: {a: b}\n    includeSelectors: true\n`,
        /includeSelectors/,
      ],
      missing: [
        `${KUSTOMIZATION}resources:\n  - ../base\npatches:\n  - patch: |-\n      apiVersion: v1\n      kind: ConfigMap\n      metadata:\n        name: nothing\n`,
        /matches 0 objects/,
      ],
      nothing: [
        `${KUSTOMIZATION}resources:\n  - ../base\npatches:\n  - target: {kind: Job}\n    patch: |-\n      - op: add\n        path: /x\n        value: 1\n`,
        /selects no object/,
      ],
      test: [
        `${KUSTOMIZATION}resources:\n  - ../base\npatches:\n  - target: {kind: ConfigMap}\n    patch: |-\n      - op: test\n        path: /data/A\n        value: "2"\n`,
        /test failed/,
      ],
      directive: [
        `${KUSTOMIZATION}resources:\n  - ../base\npatches:\n  - patch: |-\n      apiVersion: v1\n      kind: ConfigMap\n      metadata:\n        name: settings\n      $patch: delete\n`,
        /directive \$patch/,
      ],
      twice: [`${KUSTOMIZATION}resources:\n  - ../base\n  - ../again\n`, /defined twice/],
      outside: [`${KUSTOMIZATION}resources:\n  - ../base/config.yaml\n`, /is not in or below/],
    };
    for (const [name, [kustomization, error]] of Object.entries(cases)) {
      const folder = await tree(`refused-${name}`, {
        ...BASE,
        'again/kustomization.yaml': `${KUSTOMIZATION}resources:\n  - config.yaml\n`,
        'again/config.yaml': CONFIG,
        'overlay/kustomization.yaml': kustomization,
      });
      await expect(renderKustomization(join(folder, 'overlay')), name).rejects.toThrow(error);
    }
  });
});

describe.skipIf(!kubectl)('the overlays, against kubectl kustomize', () => {
  it.each(Object.entries(OVERLAYS))('%s renders as kubectl renders it', async (_name, folder) => {
    expect(await disagreements(folder)).toEqual([]);
  });
});
