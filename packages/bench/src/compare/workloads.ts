import { BAN_CHECK_GATEWAY_ENV, CHECK_PATH, seedBanCheck, untilLoaded } from '../benchmarks/ban-check/index.ts';
import { BANNED_ADDRESS } from '../benchmarks/ban-check/seed.ts';
import { measurePosts, pacedPosts, pushDeliveries } from '../benchmarks/webhook-support/drive.ts';
import { realPushPayload, seedWebhook } from '../benchmarks/webhook-support/fixture.ts';
import { measure, type Measurement } from '../measure.ts';
import { pacedLoad } from '../load-generator.ts';
import type { PacedOptions } from '../paced-load.ts';
import type { RunningService } from '../processes.ts';
import type { LoadOptions } from '../types.ts';

/** How to drive one gateway of a comparison, once the database holds what the workload needs. */
export interface PreparedWorkload {
  /** Resolves once `gateway` serves the workload (its IP bans loaded). */
  ready(gateway: RunningService): Promise<void>;
  /** One run of `load` against `gateway` (no warm-up of its own: the comparison warms up once). */
  drive(gateway: RunningService, load: LoadOptions): Promise<Measurement>;
  /** One run of a steady load at `paced.requestsPerSecond` (latency from when each was due). */
  pace(gateway: RunningService, paced: PacedOptions): Promise<Measurement>;
}

export interface Workload {
  description: string;
  /** What every variant's gateway gets for this workload, as its benchmark starts it. */
  gatewayEnv: Record<string, string>;
  /** Seeds the comparison's database once, for every variant. */
  prepare(databaseUrl: string, log: (message: string) => void): Promise<PreparedWorkload>;
}

/** As webhook-ingest: a real push to /codehost with a fresh X-GitHub-Delivery each (a new dedupe key). */
const ingest: Workload = {
  description: 'POST a real GitHub push to /v1/webhooks/{id}/{token}/codehost (webhook-ingest)',
  gatewayEnv: { RATE_LIMITS_ENABLED: 'false' },
  async prepare(databaseUrl) {
    const hook = await seedWebhook(databaseUrl);
    const body = realPushPayload();
    const path = `/v1/webhooks/${hook.webhookId}/${hook.token}/codehost`;
    const deliveriesTo = (gateway: RunningService) => pushDeliveries(`${gateway.url}${path}`, body);
    return {
      ready: async () => {},
      drive: (gateway, load) => measurePosts(deliveriesTo(gateway), load),
      pace: (gateway, paced) => pacedLoad(pacedPosts(deliveriesTo(gateway)), paced),
    };
  },
};

/** As ban-check: POST /v1/admin/bans/ip/check of a banned address, with the benchmark's 1.1M bans. */
const banCheck: Workload = {
  description: `POST ${CHECK_PATH} of a banned address with 1.1M IP bans loaded (ban-check)`,
  gatewayEnv: BAN_CHECK_GATEWAY_ENV,
  async prepare(databaseUrl, log) {
    const { key } = await seedBanCheck(databaseUrl, log);
    const headers = { authorization: `Admin ${key}`, 'content-type': 'application/json' };
    const body = JSON.stringify({ ip: BANNED_ADDRESS });
    const checkUrl = (gateway: RunningService) => `${gateway.url}${CHECK_PATH}`;
    return {
      ready: async (gateway) => void (await untilLoaded(gateway, key)),
      drive: (gateway, load) => measure(checkUrl(gateway), load, headers, { method: 'POST', body }),
      pace: (gateway, paced) => pacedLoad({ url: checkUrl(gateway), method: 'POST', body, headers }, paced),
    };
  },
};

export const WORKLOADS: Record<string, Workload> = { ingest, 'ban-check': banCheck };
