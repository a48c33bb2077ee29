import { Router } from 'express';
import type { z } from 'zod';
import type { livenessResponseSchema, readinessResponseSchema } from '@switchboard/contracts';
import { ApiError } from '@switchboard/http';
import { serveMetrics } from '@switchboard/metrics';
import { checkReadiness, exportReadiness, type ReadinessChecks } from '@switchboard/runtime';
import type { GatewayDeps } from '../deps.ts';

/**
 * What this replica cannot serve without, and what only part of its work needs. PostgreSQL
 * and the loaded IP-ban index are core: without them no request can be answered truthfully.
 * Redis (rate limits, enqueues) and S3 (large bodies, archives) are shared by every replica:
 * when they fail, draining every replica would only turn a partial outage into a total one,
 * so they show as `degraded` and the routes that need them answer 503 themselves. So does the
 * snowflake lease: it is lost mostly when Redis is away for everyone, and a replica that lost
 * its id to another process leases a free one at once.
 */
function gatewayChecks({ config, pool, redis, storage, ipBans, snowflakeLease }: GatewayDeps): ReadinessChecks {
  return {
    core: {
      postgres: () => pool.query('SELECT 1'),
      ip_bans: async () => {
        if (!(await ipBans.whenLoaded(config.READY_CHECK_TIMEOUT_MS))) throw new Error('IP bans not loaded yet');
      },
    },
    optional: {
      redis: () => redis.ping(),
      s3: async () => {
        if (!(await storage.reachable())) throw new Error('bucket unreachable');
      },
      snowflake: async () => {
        if (!snowflakeLease.held()) throw new Error('no worker id leased');
      },
    },
  };
}

/** The process's own probes: liveness, metrics, readiness. */
export const PROBE_PATHS = { live: '/healthz', metrics: '/metrics', ready: '/readyz' } as const;

/**
 * `/healthz`: the process is up (liveness; never touches a dependency, so a dead database does
 * not get the process restarted). `/readyz`: checkReadiness within READY_CHECK_TIMEOUT_MS per
 * check, in parallel; 200 `ok` or `degraded`, 503 `unavailable` when a core check failed and
 * 503 `draining` once shutdown began, so the load balancer stops sending new requests.
 */
export function healthRouter(deps: GatewayDeps): Router {
  const checks = gatewayChecks(deps);
  exportReadiness(deps.metrics, () => checkReadiness(checks, deps.config.READY_CHECK_TIMEOUT_MS, deps.isDraining));
  const router = Router();
  router.get(PROBE_PATHS.live, (_req, res) => {
    const body: z.output<typeof livenessResponseSchema> = { status: 'ok' };
    res.json(body);
  });
  // Prometheus scrapes (`@switchboard/metrics`): request timings by route template, process metrics.
  router.get(PROBE_PATHS.metrics, serveMetrics(deps.metrics));
  router.get(PROBE_PATHS.ready, async (_req, res) => {
    const readiness = await checkReadiness(checks, deps.config.READY_CHECK_TIMEOUT_MS, deps.isDraining);
    res.setHeader('Cache-Control', 'no-store');
    if (readiness.ready) {
      const body: z.output<typeof readinessResponseSchema> = { status: readiness.status, checks: readiness.checks };
      res.json(body);
      return;
    }
    throw new ApiError('SERVICE_UNAVAILABLE', {
      body: { status: readiness.status, checks: readiness.checks },
    });
  });
  return router;
}
