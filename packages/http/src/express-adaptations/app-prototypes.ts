import { createServer, IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { Express } from 'express';
import { assertLeanJsonApplies } from './json-response.ts';

/** Each adapted app's server: constructs its requests and responses with the app's classes. */
const serverFactories = new WeakMap<Express, () => Server>();

/**
 * Puts `ownPrototype` where express's `appPrototype` sat: same parent, and the same own
 * properties (`app`, and whatever was put there before: the lean `json`, the id's `writeHead`).
 */
function takeThePlaceOf(ownPrototype: object, appPrototype: object): void {
  Object.setPrototypeOf(ownPrototype, Object.getPrototypeOf(appPrototype));
  Object.defineProperties(ownPrototype, Object.getOwnPropertyDescriptors(appPrototype));
}

/**
 * Makes `app.request` and `app.response` the prototypes of subclasses of Node's classes, which
 * createAppServer's server constructs its objects with: they are born with them, and express's
 * `Object.setPrototypeOf` on arrival (app.handle) changes nothing. A change of prototype on a
 * live object costs V8 a map transition per object. Classes, not a plain function calling Node's
 * constructors on its `this`, which cost more. What is put on `app.response` later lands on the
 * new prototype itself.
 */
export function bornWithAppPrototypes(app: Express): void {
  class AppRequest extends IncomingMessage {}
  class AppResponse extends ServerResponse {}
  takeThePlaceOf(AppRequest.prototype, app.request);
  takeThePlaceOf(AppResponse.prototype, app.response);
  app.request = AppRequest.prototype as Express['request'];
  app.response = AppResponse.prototype as Express['response'];
  serverFactories.set(app, () => createServer({ IncomingMessage: AppRequest, ServerResponse: AppResponse }));
}

/**
 * An HTTP server for an app from createAdaptedApp (no request listener yet: attach `app` when
 * ready) whose requests and responses are born with the app's prototypes. `app.listen` works
 * too, without that saving.
 */
export function createAppServer(app: Express): Server {
  const serverFor = serverFactories.get(app);
  if (serverFor === undefined) throw new Error('createAppServer: the app was not made by createAdaptedApp');
  assertLeanJsonApplies(app);
  return serverFor();
}
