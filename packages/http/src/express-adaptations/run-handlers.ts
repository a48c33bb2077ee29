import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Runs `handlers` in order, as a route of express's router does: `next()` moves on, and
 * `next(error)`, a throw or a rejected promise ends the run with `done(error)`. Past the last
 * handler, or on `next('route')` / `next('router')` (which nothing here sends), `done()`.
 */
export function runHandlers(
  handlers: readonly RequestHandler[],
  req: Request,
  res: Response,
  done: NextFunction,
): void {
  let index = 0;
  const step = (error?: unknown): void => {
    if (error === 'route' || error === 'router') {
      done();
      return;
    }
    if (error !== undefined && error !== null) {
      done(error);
      return;
    }
    const handler = handlers[index++];
    if (!handler) {
      done();
      return;
    }
    try {
      const returned: unknown = handler(req, res, step);
      if (returned !== null && typeof (returned as Promise<unknown> | undefined)?.then === 'function') {
        (returned as Promise<unknown>).then(undefined, (rejection: unknown) =>
          step(rejection ?? new Error('Rejected promise')),
        );
      }
    } catch (thrown) {
      step(thrown);
    }
  };
  step();
}

/**
 * One handler that runs `handlers` in order: for middleware every request passes, mounted as one
 * layer rather than one each. Express's router does per layer, on every request, what a plain
 * call does not (a path match, the params step and its closures).
 */
export function handlersInOrder(handlers: readonly RequestHandler[]): RequestHandler {
  return (req, res, next) => runHandlers(handlers, req, res, next);
}
