import type { RequestHandler, Response } from 'express';
import { validate } from '@switchboard/http';
import type { z } from 'zod';
import { webhookTokenParams } from '../schemas.ts';

type TokenParams = z.output<typeof webhookTokenParams>;

const PARAMS = 'executeParams';

/** 400 on a bad id or token before the body is read (reference §1: params, then body). */
export const checkParams: RequestHandler = (req, res, next) => {
  res.locals[PARAMS] = validate(webhookTokenParams, req.params);
  next();
};

/** The path parameters `checkParams` validated for this request. */
export function paramsOf(res: Response): TokenParams {
  const params = res.locals[PARAMS] as TokenParams | undefined;
  if (!params) throw new Error('checkParams must run before the execute handler');
  return params;
}
