// Loaded only when tracing is on (tracing.ts): a process that does not trace never loads the
// OpenTelemetry SDK, its exporters or its instrumentations.
import { isBuiltin, register } from 'node:module';
import {
  context,
  propagation,
  SpanKind,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type TextMapGetter,
} from '@opentelemetry/api';
import { AwsInstrumentation } from '@opentelemetry/instrumentation-aws-sdk';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { ATTR_HTTP_ROUTE, ATTR_SERVICE_NAME, ATTR_URL_PATH } from '@opentelemetry/semantic-conventions';
import { createAddHookMessageChannel } from 'import-in-the-middle';
import { register as registerImportHooks, supportsSyncHooks } from 'import-in-the-middle/register-hooks.mjs';
import type { TraceCarrier, Tracing } from './tracing.ts';

/** What a server span says of a request that matched no route (as routeTemplate in packages/http). */
const UNMATCHED = '(unmatched)';

/** Probes and scrapes: a span for each would bury the requests worth following. */
const UNTRACED_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * Names a server span by the express route the request matched (`POST /v1/webhooks/:webhook_id/:token`,
 * never its URL: tokens are path segments), as routeTemplate in packages/http reads it, which
 * this package cannot import (packages/http imports this one). Not the express instrumentation:
 * a span for every middleware of every request, and their wrappers, cost more than the rest
 * of tracing (packages/bench/README.md#tracing).
 */
function nameByRoute(span: Span, request: unknown): void {
  const { route, baseUrl, method } = request as { route?: { path?: unknown }; baseUrl?: unknown; method?: unknown };
  if (typeof route?.path !== 'string' || typeof method !== 'string') return;
  const template = `${typeof baseUrl === 'string' ? baseUrl : ''}${route.path}`;
  span.setAttributes({ [ATTR_HTTP_ROUTE]: template, [ATTR_URL_PATH]: template });
  span.updateName(`${method} ${template}`);
}

type Instrumentation = ReturnType<typeof instrumentations>[number];

function instrumentations() {
  return [
    new HttpInstrumentation({
      ignoreIncomingRequestHook: (request) => UNTRACED_PATHS.has((request.url ?? '').split('?', 1)[0]!),
      // Paths carry secrets (webhook tokens are path segments): a server span keeps the route
      // the request matched (nameByRoute), never its path, even when it ends in an error.
      startIncomingSpanHook: () => ({ [ATTR_URL_PATH]: UNMATCHED }),
      applyCustomAttributesOnSpan: nameByRoute,
    }),
    // Only inside a traced request or job: a worker's pool and BullMQ's own polling would
    // otherwise start a trace of their own for every statement and command.
    new PgInstrumentation({ requireParentSpan: true }),
    // The command's name only: its arguments carry job payloads (message texts, webhook bodies).
    new IORedisInstrumentation({ requireParentSpan: true, dbStatementSerializer: (command) => command }),
    new AwsInstrumentation(),
  ];
}

/**
 * The modules the instrumentations patch, intercepted when an ES module imports them (the
 * CommonJS `require`s inside them are patched by require-in-the-middle). Only these: the
 * import hook wraps every module it intercepts.
 */
function interceptedModules(list: Instrumentation[]): string[] {
  const names = list.flatMap((instrumentation) =>
    instrumentation.getModuleDefinitions().map((definition) => definition.name),
  );
  return [...new Set(names.flatMap((name) => (isBuiltin(name) ? [name, `node:${name}`] : [name])))];
}

const getter: TextMapGetter<TraceCarrier> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => (key === 'traceparent' || key === 'tracestate' ? carrier[key] : undefined),
};

function ended<T>(span: Span, work: Promise<T>): Promise<T> {
  return work.then(
    (value) => {
      span.end();
      return value;
    },
    (error: unknown) => {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
      span.end();
      throw error;
    },
  );
}

/**
 * The instrumentations, with the import hook that lets them patch what ES modules import:
 * in-thread where Node's synchronous hooks work, else on the loader thread, told of each
 * module to intercept before anything is imported.
 */
async function instrumentImports(): Promise<Instrumentation[]> {
  if (supportsSyncHooks()) {
    const list = instrumentations();
    registerImportHooks({ include: interceptedModules(list) });
    return list;
  }
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register('import-in-the-middle/hook.mjs', import.meta.url, registerOptions);
  const list = instrumentations();
  await waitForAllMessagesAcknowledged();
  return list;
}

/** Starts the SDK from the OTEL_* variables and returns what the rest of the process calls. */
export async function startSdk(serviceName: string): Promise<Tracing> {
  const list = await instrumentImports();
  const sdk = new NodeSDK({
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES, read by the SDK's detectors, win over this.
    resource: defaultResource().merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName })),
    instrumentations: list,
    // Traces only: metrics are Prometheus's (packages/metrics), logs go to stdout.
    metricReaders: [],
    logRecordProcessors: [],
  });
  sdk.start();
  const tracer = trace.getTracer('@switchboard/telemetry');

  return {
    logFields() {
      const span = trace.getActiveSpan();
      if (!span) return undefined;
      const { traceId, spanId } = span.spanContext();
      return { trace_id: traceId, span_id: spanId };
    },
    send(queue, jobName, work) {
      return tracer.startActiveSpan(
        `send ${queue}`,
        {
          kind: SpanKind.PRODUCER,
          attributes: messagingAttributes(queue, jobName, 'send'),
        },
        (span) => {
          const carrier: TraceCarrier = {};
          propagation.inject(context.active(), carrier);
          return ended(
            span,
            work(carrier, (jobId) => span.setAttribute('messaging.message.id', jobId)),
          );
        },
      );
    },
    process(queue, job, carrier, work) {
      const parent: Context = carrier ? propagation.extract(context.active(), carrier, getter) : context.active();
      const attributes = {
        ...messagingAttributes(queue, job.jobName, 'process'),
        'messaging.message.id': job.jobId,
        'switchboard.job.attempt': job.attemptsMade + 1,
      };
      return tracer.startActiveSpan(`process ${queue}`, { kind: SpanKind.CONSUMER, attributes }, parent, (span) =>
        ended(span, work()),
      );
    },
    shutdown: () => sdk.shutdown(),
  };
}

function messagingAttributes(queue: string, jobName: string, operation: 'send' | 'process') {
  return {
    'messaging.system': 'bullmq',
    'messaging.destination.name': queue,
    'messaging.operation.type': operation,
    'messaging.operation.name': operation,
    'switchboard.job.name': jobName,
  };
}
