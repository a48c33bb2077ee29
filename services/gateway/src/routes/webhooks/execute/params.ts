import type { RequestHandler, Response } from 'express';
import { responseLocal, validate } from '@switchboard/http';
import type { z } from 'zod';
import { webhookTokenParams } from '../schemas.ts';

export type TokenParams = z.output<typeof webhookTokenParams>;

const paramsSlot = responseLocal<TokenParams>('executeParams', 'checkParams must run before the execute handler');

/**
 * 400 on a bad id or token before the body is read
 * (docs/decisions.md#fluxer-webhook-routes-and-check-order: params, then body).
 */
export const checkParams: RequestHandler = (req, res, next) => {
  paramsSlot.set(res, validate(webhookTokenParams, req.params));
  next();
};

/** The path parameters `checkParams` validated for this request. */
export function paramsOf(res: Response): TokenParams {
  return paramsSlot.get(res);
}

/** The validated path parameters, or undefined when checkParams has not run or refused them. */
export function findParams(res: Response): TokenParams | undefined {
  return paramsSlot.find(res);
}
