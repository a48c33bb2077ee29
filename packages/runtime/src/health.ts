import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ERRORS } from '@switchboard/contracts';
import { metricsText, type Registry } from '@switchboard/metrics';

/** A dependency check: resolves when the dependency answered, rejects (or hangs) when not. */
export type HealthCheck = () => Promise<unknown>;
export type CheckResult = 'ok' | 'failed' | 'timeout';

export interface ReadinessChecks {
  /** What the process cannot do its core work without: any failure makes it unready. */
  core: Record<string, HealthCheck>;
  /**
   * What only some of its work needs (Redis for the gateway's rate limits and enqueues, S3 for
   * large bodies): a failure shows as `degraded` but keeps the process in rotation, since every
   * replica shares the dependency and draining them all over a blip would refuse every request.
   */
  optional: Record<string, HealthCheck>;
}

export type ReadinessStatus = 'ok' | 'degraded' | 'unavailable' | 'draining';

export interface Readiness {
  ready: boolean;
  status: ReadinessStatus;
  checks: Record<string, CheckResult>;
}

/** Seconds a 503 from readiness tells the prober to wait. */
const READINESS_RETRY_AFTER_SECONDS = 5;

async function runCheck(check: HealthCheck, timeoutMs: number): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), timeoutMs);
  });
  const outcome = Promise.resolve()
    .then(check)
    .then(
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
 * Runs every check in parallel, each within `timeoutMs`, and says whether the process is ready.
 * Draining is asked once the checks are back: the answer says how things are when it is sent.
 */
export async function checkReadiness(
  checks: ReadinessChecks,
  timeoutMs: number,
  isDraining: () => boolean,
): Promise<Readiness> {
  const entries = [...Object.entries(checks.core), ...Object.entries(checks.optional)];
  const results = await Promise.all(entries.map(([, check]) => runCheck(check, timeoutMs)));
  const draining = isDraining();
  const report = Object.fromEntries(entries.map(([name], index) => [name, results[index]!]));
  const coreOk = Object.keys(checks.core).every((name) => report[name] === 'ok');
  const allOk = results.every((result) => result === 'ok');
  const status: ReadinessStatus = draining ? 'draining' : !coreOk ? 'unavailable' : allOk ? 'ok' : 'degraded';
  return { ready: !draining && coreOk, status, checks: report };
}

/** The body of an unready answer: the error body (docs/decisions.md#health-and-readiness) plus the report. */
function unreadyBody(readiness: Readiness): Record<string, unknown> {
  return {
    status: readiness.status,
    checks: readiness.checks,
    code: 'SERVICE_UNAVAILABLE',
    message: ERRORS.SERVICE_UNAVAILABLE.message,
  };
}

export interface HealthServerOptions {
  host: string;
  /** 0: any free port (several workers on one machine); the chosen one is returned. */
  port: number;
  checks: ReadinessChecks;
  checkTimeoutMs: number;
  isDraining: () => boolean;
  /** Served at `/metrics` for Prometheus. */
  metrics?: Registry;
}

export interface HealthServer {
  port: number;
  close(): Promise<void>;
}

function sendJson(
  res: import('node:http').ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers });
  res.end(JSON.stringify(body));
}

/**
 * `/healthz` (the process is up; never touches a dependency), `/readyz` (checkReadiness) and
 * `/metrics` on a port of their own, for processes without an HTTP API: workers. Same bodies as
 * the gateway's.
 */
export async function serveHealth(options: HealthServerOptions): Promise<HealthServer> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/metrics' && options.metrics) {
      void metricsText(options.metrics).then(({ contentType, body }) => {
        res.writeHead(200, { 'Content-Type': contentType, 'Cache-Control': 'no-store' });
        res.end(body);
      });
      return;
    }
    const known = req.method === 'GET' && (path === '/healthz' || path === '/readyz');
    if (!known) return sendJson(res, 404, { code: 'NOT_FOUND', message: ERRORS.NOT_FOUND.message });
    if (path === '/healthz') return sendJson(res, 200, { status: 'ok' });
    void checkReadiness(options.checks, options.checkTimeoutMs, options.isDraining).then((readiness) => {
      if (readiness.ready) return sendJson(res, 200, { status: readiness.status, checks: readiness.checks });
      sendJson(res, 503, unreadyBody(readiness), { 'Retry-After': String(READINESS_RETRY_AFTER_SECONDS) });
    });
  });
  // Probes are short; a prober that leaves a connection open must not hold the shutdown.
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
