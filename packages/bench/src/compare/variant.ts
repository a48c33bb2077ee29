import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Where a checkout keeps the gateway's entry point. */
export const GATEWAY_ENTRY_IN_TREE = 'services/gateway/src/main.ts';

/** One gateway of a comparison: a checkout (with its own node_modules) and environment overrides. */
export interface Variant {
  /** As given on the command line, for the report. */
  label: string;
  /** Absolute path of the checkout. */
  tree: string;
  env: Record<string, string>;
}

const ENV_NAME = /^[A-Z][A-Z0-9_]*$/;

/**
 * `<tree>[@NAME=value,NAME=value]`: a checkout (`.` for this one, a `git worktree` of another
 * revision with its own `npm ci`) and the environment its gateway gets on top of the
 * comparison's. Throws with a readable message when the tree has no gateway or an override is
 * not NAME=value.
 */
export function parseVariant(spec: string, cwd: string = process.cwd()): Variant {
  const at = spec.indexOf('@');
  const treePart = at === -1 ? spec : spec.slice(0, at);
  const env: Record<string, string> = {};
  for (const pair of at === -1 ? [] : spec.slice(at + 1).split(',')) {
    const equals = pair.indexOf('=');
    const name = equals === -1 ? pair : pair.slice(0, equals);
    if (equals === -1 || !ENV_NAME.test(name))
      throw new Error(`${spec}: overrides are NAME=value, separated by commas`);
    env[name] = pair.slice(equals + 1);
  }
  const tree = resolve(cwd, treePart || '.');
  if (!existsSync(join(tree, GATEWAY_ENTRY_IN_TREE)))
    throw new Error(`${spec}: no ${GATEWAY_ENTRY_IN_TREE} under ${tree}`);
  return { label: spec, tree, env };
}
