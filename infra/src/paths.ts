import { fileURLToPath } from 'node:url';

/** The infra folder: this file is in infra/src/. */
export const INFRA_ROOT = fileURLToPath(new URL('../', import.meta.url));
export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

/** The kustomize overlays a team applies (`kubectl apply -k infra/k8s/overlays/<name>`). */
export const OVERLAYS = {
  production: fileURLToPath(new URL('../k8s/overlays/production/', import.meta.url)),
  minimal: fileURLToPath(new URL('../k8s/overlays/minimal/', import.meta.url)),
} as const;

export type OverlayName = keyof typeof OVERLAYS;

/** The keys (with example values) of the Secret the pods read; created by hand, never applied from here. */
export const SECRET_EXAMPLE = fileURLToPath(new URL('../k8s/base/secret.example.env', import.meta.url));
export const SECRET_NAME = 'switchboard';

export const COMPOSE_FILE = fileURLToPath(new URL('../../docker-compose.yml', import.meta.url));
export const COMPOSE_SCHEMA = fileURLToPath(new URL('../vendor/compose-spec.json', import.meta.url));
export const NGINX_CONFIG = fileURLToPath(new URL('../nginx/nginx.conf', import.meta.url));
