import { Router } from 'express';
import { ApiError } from '@switchboard/http';
import type { GatewayDeps } from '../deps.ts';

type CheckResult = 'ok' | 'failed' | 'timeout';

async function runCheck(check: () => Promise<unknown>, timeoutMs: number): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const outcome = check().then(
    () => 'ok' as const,
    () => 'failed' as const,
  );
  try {
    return await Promise.race([outcome, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `/healthz`: the process is up (liveness; never touches a dependency, so a dead database does
 * not get the process restarted). `/readyz`: PostgreSQL, Redis and the S3 bucket answer, each
 * within READY_CHECK_TIMEOUT_MS, checked in parallel; 503 says which did not, and 503 once
 * shutdown began, so the load balancer stops sending new requests.
 */
export function healthRouter({ config, pool, redis, storage, isDraining }: GatewayDeps): Router {
  const checkTimeoutMs = config.READY_CHECK_TIMEOUT_MS;
  const checks: Record<string, () => Promise<unknown>> = {
    postgres: () => pool.query('SELECT 1'),
    redis: () => redis.ping(),
    s3: async () => {
      if (!(await storage.reachable())) throw new Error('bucket unreachable');
    },
  };
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const names = Object.keys(checks);
    const results = await Promise.all(names.map((name) => runCheck(checks[name]!, checkTimeoutMs)));
    const report = Object.fromEntries(names.map((name, index) => [name, results[index]!]));
    const draining = isDraining();
    res.setHeader('Cache-Control', 'no-store');
    if (!draining && results.every((result) => result === 'ok')) {
      res.json({ status: 'ok', checks: report });
      return;
    }
    throw new ApiError('SERVICE_UNAVAILABLE', {
      body: { status: draining ? 'draining' : 'unavailable', checks: report },
    });
  });
  return router;
}
