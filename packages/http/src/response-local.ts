import type { Response } from 'express';

/**
 * One typed value in `res.locals`, set by one middleware and read by later ones. The key is a
 * symbol owned by the slot, so nothing can read or write it by spelling a string, and two slots
 * never collide.
 */
export interface ResponseLocal<T> {
  set(res: Response, value: T): void;
  /** The value, or undefined while no middleware has set it. */
  find(res: Response): T | undefined;
  /** The value; throws when it is unset, which means a middleware is missing from the chain. */
  get(res: Response): T;
}

export function responseLocal<T>(
  name: string,
  unsetMessage = `${name} read before the middleware that sets it ran`,
): ResponseLocal<T> {
  const key = Symbol(name);
  // Express types `res.locals` with string keys only; the slot's symbol is its own key.
  const locals = (res: Response) => res.locals as Record<symbol, T | undefined>;
  return {
    set: (res, value) => {
      locals(res)[key] = value;
    },
    find: (res) => locals(res)[key],
    get: (res) => {
      const value = locals(res)[key];
      if (value === undefined) throw new Error(unsetMessage);
      return value;
    },
  };
}
