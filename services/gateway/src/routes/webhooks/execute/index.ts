import { Router, type ErrorRequestHandler, type Request, type Response } from 'express';
import { isApiError, methodNotAllowed, type FailureBudget } from '@switchboard/http';
import type { GatewayDeps } from '../../../deps.ts';
import { authFailures, routeLimiter, webhookFailures } from '../../../route-limiter.ts';
import { inboundBody } from './body.ts';
import { holdsToken } from './caller.ts';
import { bodyBudget, processBudgetBytes } from './body-budget.ts';
import { createBodyChecker } from './body-check.ts';
import { webhookBeforeBody } from './credentials.ts';
import { chatAppFormat, codeHostFormat, errorTrackerFormat, plainFormat, type ExecutionFormat } from './formats.ts';
import { executeHandler, type ExecuteHandlerDeps } from './handler.ts';
import { batchedLookup, cachedLookup, lanesPerProcess, type ExecutionLookupFn } from './lookup.ts';
import { blockAppOrigin } from './origin.ts';
import { checkParams, findParams } from './params.ts';

/** A webhook's token path: execution here and under its format suffixes, management (GET/PATCH/DELETE) in ../index.ts. */
export const TOKEN_PATH = '/v1/webhooks/:webhook_id/:token';

/** The two budgets a refused execution may spend from (route-limiter.ts). */
interface FailureBudgets {
  /** The client address's: refusals that prove nothing about the caller. */
  address: FailureBudget;
  /** The address's for this webhook: refusals of a caller holding the webhook's token. */
  webhook: FailureBudget;
}

/**
 * A refused execution (unknown webhook, wrong token or signature, a body that does not
 * validate, is too large or of the wrong type) spends one unit of a failure budget; rate
 * limits (429) and our own 5xx do not. Only a caller that proved nothing (unknown id, wrong
 * token, unreadable path) spends the address's budget, which senders such as GitHub share
 * across all their customers; one holding the webhook's token spends that webhook's.
 */
function spendOnRefusal(failures: FailureBudgets, lookUp: ExecutionLookupFn): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    const refused = isApiError(error)
      ? error.status >= 400 && error.status < 500 && error.status !== 429
      : isClientError(error);
    if (!refused) return next(error);
    void spendFor(failures, lookUp, req, res).finally(() => next(error));
  };
}

async function spendFor(
  failures: FailureBudgets,
  lookUp: ExecutionLookupFn,
  req: Request,
  res: Response,
): Promise<void> {
  const params = findParams(res);
  // A lookup that fails tells nothing about the caller either.
  const holder = params !== undefined && (await holdsToken(res, params, lookUp).catch(() => false));
  await (holder ? failures.webhook.recordFailure(req, params) : failures.address.recordFailure(req));
}

/** Body-parser errors (413, 415, 400) carry their status. */
function isClientError(error: unknown): boolean {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' && status >= 400 && status < 500;
}

/**
 * Webhook execution (docs/decisions.md#webhook-execution): plain execute on the token path, and the code-host,
 * error-tracker and chat-app formats under their interface names and their aliases. Each runs:
 * the client IP's failure budget, then its budget for this webhook (429 before anything is
 * read, docs/decisions.md#auth-failure-budget) → rate limit (per client IP and webhook) → origin block (plain only) →
 * path → the webhook and token (404 unread, whatever the body; 401 unread on a route without
 * signatures when the webhook has a secret) → the process's body budget
 * (503 past its share of WEBHOOK_BODY_BUDGET_BYTES in flight) → body read (25 MiB,
 * 413/415/400, 408 past the read timeouts) → the format's handler; a refusal (a timeout
 * included) spends from one failure budget (spendOnRefusal). Only POST routes: the other
 * methods' 405 answers are executeMethodGuards(), mounted after the management routes.
 */
export function executeRouter(deps: GatewayDeps): Router {
  const { config, logger } = deps;
  const handlerDeps: ExecuteHandlerDeps = {
    ...deps,
    waitTimeoutMs: config.WEBHOOK_WAIT_TIMEOUT_MS,
    inlineBodyMaxBytes: config.WEBHOOK_INLINE_BODY_MAX_BYTES,
    lookUp: cachedLookup(
      batchedLookup(deps.pool, config.DATABASE_POOL_SIZE, lanesPerProcess(config.GATEWAY_PROCESSES), deps.secrets),
      deps.changeFeed,
      deps.metrics,
    ),
  };
  const credentials = {
    signed: webhookBeforeBody(handlerDeps.lookUp, { signed: true }),
    unsigned: webhookBeforeBody(handlerDeps.lookUp, { signed: false }),
  };
  const limit = routeLimiter(deps);
  const failures = { address: authFailures(deps), webhook: webhookFailures(deps) };
  // One budget for every format's route: it bounds the process's memory, not a route's.
  const budget = bodyBudget(
    processBudgetBytes(config.WEBHOOK_BODY_BUDGET_BYTES, config.GATEWAY_PROCESSES),
    deps.metrics,
  );
  // Small bodies are decoded here; large ones only on a parse thread.
  const bodies = {
    parseHereMaxBytes: config.WEBHOOK_PARSE_HERE_MAX_BYTES,
    // Its threads live as long as the app: until the pool ends, as the change feed's connection.
    checker: createBodyChecker({
      logger,
      timeoutMs: config.WEBHOOK_PARSE_TIMEOUT_MS,
      stopWhen: () => deps.pool.ending,
    }),
    timeouts: { totalMs: config.WEBHOOK_BODY_TIMEOUT_MS, idleMs: config.WEBHOOK_BODY_IDLE_TIMEOUT_MS },
  };
  // Only plain execute has Fluxer's origin block, and only it honours `?wait=true`.
  const originBlock = blockAppOrigin(config.endpoints.webapp);

  const router = Router();
  const paths: string[] = [];
  const mount = <Parsed>(format: ExecutionFormat<Parsed>): void => {
    const plain = format.name === 'plain';
    const chain = [
      failures.address.guard,
      failures.webhook.guard,
      limit(format.bucket),
      ...(plain ? [originBlock] : []),
      checkParams,
      format.verify ? credentials.signed : credentials.unsigned,
      budget,
      inboundBody(format, bodies),
      executeHandler(format, handlerDeps, plain),
    ];
    for (const suffix of format.paths) {
      const path = `${TOKEN_PATH}${suffix}`;
      paths.push(path);
      router.post(path, ...chain);
    }
  };
  mount(plainFormat);
  mount(codeHostFormat);
  mount(errorTrackerFormat);
  mount(chatAppFormat);
  router.use(spendOnRefusal(failures, handlerDeps.lookUp));
  return router;
}

/**
 * 405 for the methods the execution paths do not serve. Mount after the management router,
 * which owns GET/PATCH/DELETE on the token path.
 */
export function executeMethodGuards(): Router {
  const router = Router();
  router.all(TOKEN_PATH, methodNotAllowed(['GET', 'HEAD', 'PATCH', 'DELETE', 'POST']));
  for (const suffix of [...codeHostFormat.paths, ...errorTrackerFormat.paths, ...chatAppFormat.paths]) {
    router.all(`${TOKEN_PATH}${suffix}`, methodNotAllowed(['POST']));
  }
  return router;
}
