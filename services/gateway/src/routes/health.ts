import { Router } from 'express';
import type { Redis } from 'ioredis';
import type { Pool } from '@switchboard/db';
import { ApiError } from '@switchboard/http';
import type { Storage } from '@switchboard/storage';

export interface HealthRouterOptions {
  pool: Pool;
  redis: Redis;
  storage: Storage;
  /** Bound on each dependency check, in milliseconds. */
  checkTimeoutMs: number;
  /** True once shutdown began: the load balancer should stop sending new requests. */
  isDraining?: () => boolean;
}

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
 * within the timeout, checked in parallel; 503 says which did not.
 */
export function healthRouter({ pool, redis, storage, checkTimeoutMs, isDraining }: HealthRouterOptions): Router {
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
    const draining = isDraining?.() ?? false;
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
