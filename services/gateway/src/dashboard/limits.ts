import type { RequestHandler } from 'express';
import { z } from 'zod';
import { setRateLimitIdentity, validate } from '@switchboard/http';
import { adminPrincipal } from '../admin-auth/index.ts';

/**
 * bull-board takes any `jobsPerPage` and `page` (`jobsPerPage=1000000` reads a million jobs out
 * of Redis in one request). Its own UI offers at most 100 a page; anything past these bounds is
 * 400 at the parameter, before the board runs.
 */
export const DASHBOARD_MAX_JOBS_PER_PAGE = 100;
const DASHBOARD_MAX_PAGE = 100_000;

const boardQuery = z.object({
  jobsPerPage: z.coerce.number().int().min(1).max(DASHBOARD_MAX_JOBS_PER_PAGE).optional(),
  page: z.coerce.number().int().min(1).max(DASHBOARD_MAX_PAGE).optional(),
});

export const boundedBoardQuery: RequestHandler = (req, _res, next) => {
  validate(boardQuery, { jobsPerPage: req.query['jobsPerPage'], page: req.query['page'] });
  next();
};

/** After authentication: the session's admin is who the dashboard's rate-limit bucket counts. */
export const dashboardRateLimitIdentity: RequestHandler = (_req, res, next) => {
  setRateLimitIdentity(res, `admin:${adminPrincipal(res).adminUserId}`);
  next();
};
