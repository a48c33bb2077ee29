import express, { type Express } from 'express';
import { serveOnFreePort, type ServedApp } from '@switchboard/testkit';

/** An express 5 app, set up by `configure`, on an ephemeral port of `host`. */
export function startApp(configure: (app: Express) => void, host = '127.0.0.1'): Promise<ServedApp> {
  const app = express();
  configure(app);
  return serveOnFreePort(app, host);
}
