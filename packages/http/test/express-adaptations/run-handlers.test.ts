import type { ErrorRequestHandler, RequestHandler } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServedApp } from '@switchboard/testkit/network';
import { startAdaptedApp } from '../start-app.ts';

let app: ServedApp;

/** Notes its name in the request's trail, then moves on. */
function mark(name: string): RequestHandler {
  return (_req, res, next) => {
    res.locals['trail'] = [...((res.locals['trail'] as string[] | undefined) ?? []), name];
    next();
  };
}

/** Stops the run the way `how` (a query parameter) says, after noting itself: a throw here is synchronous. */
const stopper: RequestHandler = (req, res, next) => {
  mark('stopper')(req, res, () => undefined);
  const how = req.query['how'];
  if (how === 'throw') throw new Error('thrown');
  if (how === 'reject') return Promise.reject(new Error('rejected'));
  if (how === 'next-error') return next(new Error('passed'));
  if (how === 'answer') return void res.send(`answered after ${(res.locals['trail'] as string[]).join(',')}`);
  // Moves on later, as an awaited handler does.
  void Promise.resolve().then(() => next());
};

beforeAll(async () => {
  app = await startAdaptedApp({ everyRequest: [mark('first'), stopper, mark('last')] }, (express) => {
    express.use((_req, res) => void res.send(`routed after ${(res.locals['trail'] as string[]).join(',')}`));
    express.use(((error: Error, _req, res, _next) => {
      res.status(500).send(`error: ${error.message} after ${(res.locals['trail'] as string[]).join(',')}`);
    }) as ErrorRequestHandler);
  });
});

afterAll(() => app.close());

async function answer(query: string): Promise<{ status: number; text: string }> {
  const response = await fetch(`${app.url}/anything${query}`);
  return { status: response.status, text: await response.text() };
}

describe('everyRequest, run as one layer', () => {
  it('runs every handler in order, then the layers after it', async () => {
    expect(await answer('')).toEqual({ status: 200, text: 'routed after first,stopper,last' });
  });

  it('lets a handler answer and end the run', async () => {
    expect(await answer('?how=answer')).toEqual({ status: 200, text: 'answered after first,stopper' });
  });

  it.each(['throw', 'reject', 'next-error'])('hands a %s to the error handlers, skipping the rest', async (how) => {
    const { status, text } = await answer(`?how=${how}`);
    expect(status).toBe(500);
    expect(text).toMatch(/^error: (thrown|rejected|passed) after first,stopper$/);
  });
});
