import { archiveWorkerConfigSchema, ARCHIVE_WORKER_QUEUE } from '@switchboard/archive-worker';
import { ASSET_PURGE_WORKER_QUEUE } from '@switchboard/asset-purge-worker';
import { bulkWorkerConfigSchema, BULK_WORKER_QUEUE } from '@switchboard/bulk-worker';
import { cliConfigSchema } from '@switchboard/cli';
import { parseConfig, SECRET_VARIABLES, type z } from '@switchboard/config';
import type { QueueName } from '@switchboard/contracts';
import { gatewayConfigSchema } from '@switchboard/gateway';
import { tracingConfigSchema } from '@switchboard/telemetry';
import { SERVICE_NODE_FLAGS, SHUTDOWN_SLACK_MS, workerConfigSchema, type WorkerConfig } from '@switchboard/runtime';
import { webhookWorkerConfigSchema, WEBHOOK_WORKER_QUEUE } from '@switchboard/webhook-worker';

/** A config parsed by a process's own schema, or the problems its start would print. */
export type Parsed = { ok: true; config: Record<string, unknown> } | { ok: false; problems: string[] };

/**
 * One kind of Switchboard process as a deployment runs it (a compose service, a Deployment or
 * Job of the same name): its command, the schema its environment must pass, and for a long-
 * running one where its probes listen and how long its shutdown may take.
 */
export interface ProcessKind {
  name: string;
  /** The container's command, from the repository root (the image's working directory). */
  command: readonly string[];
  /**
   * Every variable the process reads (its schema's, and `<NAME>_FILE` of its secret ones):
   * anything else set for it is a typo or a leftover.
   */
  variables: readonly string[];
  /** Variables the schema requires (no default, not optional). */
  required: readonly string[];
  parse(env: Record<string, string>): Parsed;
  server?: {
    /** Variables of the address `/healthz`, `/readyz` and `/metrics` listen on. */
    hostVariable: 'HOST' | 'HEALTH_HOST';
    portVariable: 'PORT' | 'HEALTH_PORT';
    /** From SIGTERM to the process's own forced exit (its onStopSignals bound), by its config. */
    shutdownBoundMs(config: Record<string, unknown>): number;
  };
  /** The queue a worker consumes. */
  queue?: QueueName;
}

/** The object schema under a process's schema (its refinements and transforms unwrapped). */
function objectShape(schema: z.ZodType): Record<string, z.ZodType> {
  const def = schema.def as { type: string; in?: z.ZodType; shape?: Record<string, z.ZodType> };
  if (def.type === 'object' && def.shape) return def.shape;
  if (def.type === 'pipe' && def.in) return objectShape(def.in);
  throw new Error(`a config schema of type ${def.type}: expected an object, maybe piped into a transform`);
}

/**
 * A process kind from its schema; `alsoReads`: a schema it parses beside its own (the
 * services' tracing variables, packages/telemetry).
 */
function describe(
  name: string,
  ownSchema: z.ZodType,
  rest: Omit<ProcessKind, 'name' | 'variables' | 'required' | 'parse'>,
  alsoReads?: z.ZodType,
) {
  const shape = { ...objectShape(ownSchema), ...(alsoReads ? objectShape(alsoReads) : {}) };
  const secretFiles = SECRET_VARIABLES.filter((variable) => variable in shape).map((variable) => `${variable}_FILE`);
  return {
    name,
    variables: [...Object.keys(shape), ...secretFiles],
    required: Object.keys(shape).filter((variable) => !shape[variable]!.safeParse(undefined).success),
    parse: (env: Record<string, string>) => {
      const own = parseConfig(ownSchema, env) as Parsed;
      const also = alsoReads ? (parseConfig(alsoReads, env) as Parsed) : undefined;
      if (!also || also.ok) return own;
      return { ok: false, problems: [...(own.ok ? [] : own.problems), ...also.problems] } as Parsed;
    },
    ...rest,
  } satisfies ProcessKind;
}

const serviceCommand = (service: string) => ['node', ...SERVICE_NODE_FLAGS, `services/${service}/src/main.ts`];

const workerServer: NonNullable<ProcessKind['server']> = {
  hostVariable: 'HEALTH_HOST',
  portVariable: 'HEALTH_PORT',
  // runWorkerService (packages/runtime/src/worker-service.ts).
  shutdownBoundMs: (config) => (config as WorkerConfig).WORKER_SHUTDOWN_TIMEOUT_MS + SHUTDOWN_SLACK_MS,
};

function worker(name: string, schema: z.ZodType, queue: QueueName): ProcessKind {
  return describe(name, schema, { command: serviceCommand(name), server: workerServer, queue }, tracingConfigSchema);
}

export const PROCESS_KINDS: readonly ProcessKind[] = [
  describe(
    'gateway',
    gatewayConfigSchema,
    {
      command: serviceCommand('gateway'),
      server: {
        hostVariable: 'HOST',
        portVariable: 'PORT',
        // One process: serveGateway's bound; several: their primary's, which outlasts them
        // (services/gateway/src/serve.ts, processes.ts).
        shutdownBoundMs: (config) =>
          Number(config['SHUTDOWN_TIMEOUT_MS']) + (Number(config['GATEWAY_PROCESSES']) > 1 ? 2 : 1) * SHUTDOWN_SLACK_MS,
      },
    },
    tracingConfigSchema,
  ),
  worker('webhook-worker', webhookWorkerConfigSchema, WEBHOOK_WORKER_QUEUE),
  worker('archive-worker', archiveWorkerConfigSchema, ARCHIVE_WORKER_QUEUE),
  // Its main.ts runs the runtime's own schema (no config of its own).
  worker('asset-purge-worker', workerConfigSchema, ASSET_PURGE_WORKER_QUEUE),
  worker('bulk-worker', bulkWorkerConfigSchema, BULK_WORKER_QUEUE),
  describe('migrate', cliConfigSchema, { command: ['node', 'packages/cli/src/main.ts', 'migrate', '--json'] }),
];

export function processKind(name: string): ProcessKind {
  const kind = PROCESS_KINDS.find((candidate) => candidate.name === name);
  if (!kind) throw new Error(`no Switchboard process is called ${name}`);
  return kind;
}
