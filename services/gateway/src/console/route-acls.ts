import { ADMIN_ROUTES, type AclName } from '@switchboard/contracts';

/**
 * The ACLs the admin route `'<METHOD> <path>'` requires, read from ADMIN_ROUTES, so a console
 * screen or button is shown by the very list the API checks; a route not in the table stops the
 * gateway at start.
 */
export function routeAcls(key: string): readonly AclName[] {
  const route = ADMIN_ROUTES.find((entry) => `${entry.method} ${entry.path}` === key);
  if (route === undefined) throw new Error(`console: "${key}" is not an ADMIN_ROUTES entry`);
  return route.anyOf;
}
