import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { asK8sObject, type K8sObject } from '../k8s/objects.ts';
import { parseYamlDocuments } from '../yaml-files.ts';

const run = promisify(execFile);

/** Whether `kubectl` is on PATH (`kubectl version --client` answers). */
export async function hasKubectl(): Promise<boolean> {
  try {
    await run('kubectl', ['version', '--client'], { timeout: 30_000 });
    return true;
  } catch {
    return false;
  }
}

/** What `kubectl kustomize <folder>` renders (offline: it reads the files only). */
export async function kubectlKustomize(folder: string): Promise<K8sObject[]> {
  const { stdout } = await run('kubectl', ['kustomize', folder], { timeout: 60_000, maxBuffer: 16 * 1024 * 1024 });
  return parseYamlDocuments(stdout, `kubectl kustomize ${folder}`).map((document) =>
    asK8sObject(document, `kubectl kustomize ${folder}`),
  );
}
