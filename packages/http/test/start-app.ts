import express, { type Express } from 'express';
import { serveOnFreePort, type ServedApp } from '@switchboard/testkit/network';
import { createAdaptedApp, type AdaptedAppOptions } from '../src/index.ts';

/** An express 5 app, set up by `configure`, on an ephemeral port of `host`. */
export function startApp(configure: (app: Express) => void, host = '127.0.0.1'): Promise<ServedApp> {
  const app = express();
  configure(app);
  return serveOnFreePort(app, host);
}

/** An app from createAdaptedApp(`options`), set up by `configure`, on an ephemeral port of 127.0.0.1. */
export function startAdaptedApp(options: AdaptedAppOptions, configure: (app: Express) => void): Promise<ServedApp> {
  const app = createAdaptedApp(options);
  configure(app);
  return serveOnFreePort(app);
}
