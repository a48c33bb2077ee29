import { readFileSync } from 'node:fs';

/**
 * The variables that carry secrets (passwords inside URLs, keys): each may instead name a file
 * that holds it, `<NAME>_FILE`, as Docker and Kubernetes secrets are mounted.
 */
export const SECRET_VARIABLES = [
  'DATABASE_URL',
  'DATABASE_DIRECT_URL',
  'REDIS_URL',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'SECRETS_ENCRYPTION_KEY',
  'SECRETS_ENCRYPTION_KEYS',
  // The operator CLI's admin key.
  'SWITCHBOARD_ADMIN_KEY',
] as const;

type Env = Record<string, string | undefined>;

/**
 * `env` with every `<NAME>_FILE` of a secret variable read into `<NAME>` (one trailing newline
 * dropped, as editors and `echo` leave one), and the problems: a file that cannot be read, or
 * both forms set. A problem names the variable and the path, never the content.
 */
export function readSecretFiles(env: Env): { env: Env; problems: string[] } {
  const resolved: Env = { ...env };
  const problems: string[] = [];
  for (const name of SECRET_VARIABLES) {
    const path = env[`${name}_FILE`];
    if (!path) continue;
    delete resolved[`${name}_FILE`];
    if (env[name]) {
      problems.push(`${name}_FILE: ${name} is set too; set one of them`);
      continue;
    }
    try {
      resolved[name] = readFileSync(path, 'utf8').replace(/\r?\n$/, '');
    } catch (error) {
      problems.push(`${name}_FILE: cannot read ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
  }
  return { env: resolved, problems };
}
