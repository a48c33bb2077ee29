import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACL } from '@switchboard/contracts';
import {
  ancestorsOf,
  startOtlpReceiver,
  type OtlpReceiver,
  type ReceivedSpan,
} from '@switchboard/testkit/otlp-receiver';
import { call } from '@switchboard/testkit/http';
import { createArchiveGuildFixture } from '@switchboard/testkit/guilds';
import { createWebhookFixture } from '@switchboard/testkit/webhooks';
import { spawnService, type ServiceProcess } from '@switchboard/testkit/processes';
import { storageFor } from '@switchboard/testkit/storage';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { useTestPool } from '@switchboard/testkit/pool';
import { waitFor } from '@switchboard/testkit/wait';
import { adminCall, createAdmin } from './admin-helpers.ts';

// One request followed across real processes (main.ts of each, as `npm start` runs them), its
// spans exported to a receiver in this file (docs/decisions.md#request-ids-and-traces-across-the-queue).
const environment = useTestEnvironment();
const pool = useTestPool(environment, 1);
let receiver: OtlpReceiver;
let gateway: ServiceProcess;
let webhookWorker: ServiceProcess;
let archiveWorker: ServiceProcess;
let gatewayUrl: string;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  const tracing = {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_BSP_SCHEDULE_DELAY: '50',
  };
  [gateway, webhookWorker, archiveWorker] = await Promise.all([
    spawnService(
      'gateway',
      environment.processEnv({
        PORT: '0',
        HOST: '127.0.0.1',
        GATEWAY_PROCESSES: '1',
        RATE_LIMITS_ENABLED: 'false',
        LOG_LEVEL: 'debug',
        ...tracing,
      }),
    ),
    spawnService('webhook-worker', environment.processEnv(tracing)),
    spawnService('archive-worker', environment.processEnv(tracing)),
  ]);
  gatewayUrl = `http://127.0.0.1:${gateway.ready['port']}`;
});

afterAll(async () => {
  await Promise.all([gateway?.stop(), webhookWorker?.stop(), archiveWorker?.stop()]);
  await receiver?.close();
});

/** A parent the caller "sent from": its trace continues in ours. */
function sentParent(): { traceId: string; spanId: string; traceparent: string } {
  const traceId = randomBytes(16).toString('hex');
  const spanId = randomBytes(8).toString('hex');
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

const spansOf = (traceId: string) => receiver.spans().filter((span) => span.traceId === traceId);

/** The one span of `spans` that `match` picks; fails naming what there was when not exactly one. */
function only(spans: ReceivedSpan[], match: (span: ReceivedSpan) => boolean): ReceivedSpan {
  const found = spans.filter(match);
  if (found.length !== 1) {
    throw new Error(`${found.length} spans matched, of: ${spans.map((s) => `${s.service} ${s.name}`).join('; ')}`);
  }
  return found[0]!;
}

const hasJobSpan = (spans: ReceivedSpan[], queue: string) => spans.some((span) => span.name === `process ${queue}`);

/** Asserts the chain gateway request → enqueue → job for `traceId`, and returns its spans. */
function requestToJob(traceId: string, parentSpanId: string, queue: string, worker: string) {
  const spans = spansOf(traceId);
  const request = only(spans, (span) => span.service === 'gateway' && span.kind === 'server');
  expect(request.parentSpanId).toBe(parentSpanId);
  const send = only(spans, (span) => span.name === `send ${queue}`);
  expect(send).toMatchObject({ service: 'gateway', kind: 'producer' });
  expect(ancestorsOf(send, spans)).toContain(request);
  const process = only(spans, (span) => span.name === `process ${queue}`);
  expect(process).toMatchObject({ service: worker, kind: 'consumer', parentSpanId: send.spanId });
  expect(process.attributes).toMatchObject({ 'messaging.destination.name': queue });
  return { spans, request, send, process };
}

describe('a traced request across the gateway and its workers', () => {
  it('a webhook execution is one trace: the sender’s parent → the gateway’s request → its enqueue → the worker’s job → its statements', async () => {
    const hook = await createWebhookFixture(pool());
    const parent = sentParent();
    const answer = await call('POST', `${gatewayUrl}/v1/webhooks/${hook.webhookId}/${hook.token}`, {
      headers: { traceparent: parent.traceparent },
      body: { content: 'followed' },
    });
    expect(answer.status).toBe(204);

    const isStatement = (span: ReceivedSpan) =>
      span.attributes['db.system.name'] === 'postgresql' || span.attributes['db.system'] === 'postgresql';
    // A job's span ends after its statements' and may come in a later export.
    await waitFor(async () => {
      const spans = spansOf(parent.traceId);
      return (
        hasJobSpan(spans, 'webhook-deliveries') &&
        spans.some((span) => span.service === 'webhook-worker' && isStatement(span))
      );
    }, 20_000);
    const { spans, request, send, process } = requestToJob(
      parent.traceId,
      parent.spanId,
      'webhook-deliveries',
      'webhook-worker',
    );
    // Named by its route, never its URL (the token is a path segment).
    expect(request).toMatchObject({
      name: 'POST /v1/webhooks/:webhook_id/:token',
      attributes: expect.objectContaining({ 'http.route': '/v1/webhooks/:webhook_id/:token' }),
    });
    expect(JSON.stringify(spans)).not.toContain(hook.token);
    // Nor the payload: Redis commands are named, their arguments left out.
    expect(JSON.stringify(spans)).not.toContain('followed');
    // The job's add is a Redis command of the enqueue.
    expect(
      spans.some(
        (span) =>
          span.service === 'gateway' &&
          span.attributes['db.system.name'] === 'redis' &&
          ancestorsOf(span, spans).includes(send),
      ),
    ).toBe(true);
    const statements = spans.filter((span) => span.service === 'webhook-worker' && isStatement(span));
    expect(statements.every((span) => ancestorsOf(span, spans).includes(process))).toBe(true);
    expect(
      statements.some((span) =>
        /INSERT/i.test(String(span.attributes['db.query.text'] ?? span.attributes['db.statement'])),
      ),
    ).toBe(true);
  });

  it('an archive trigger is one trace down to the archive worker’s upload to S3', async () => {
    const admin = await createAdmin(pool(), [ACL.authenticate, ACL.archiveTriggerGuild]);
    const seeded = await createArchiveGuildFixture(pool(), storageFor(environment), 10);
    const parent = sentParent();
    const triggered = await adminCall(gatewayUrl, {
      method: 'POST',
      path: '/v1/admin/archives/guild',
      key: admin.key,
      body: { guild_id: seeded.guildId },
      headers: { traceparent: parent.traceparent },
    });
    expect(triggered.status).toBe(200);

    const isUpload = (span: ReceivedSpan) =>
      span.service === 'archive-worker' &&
      span.attributes['rpc.service'] === 'S3' &&
      /^(PutObject|CompleteMultipartUpload)$/.test(String(span.attributes['rpc.method']));
    const upload = await waitFor(async () => {
      const spans = spansOf(parent.traceId);
      return hasJobSpan(spans, 'archive-exports') && spans.find(isUpload);
    }, 30_000);
    const { spans, process } = requestToJob(parent.traceId, parent.spanId, 'archive-exports', 'archive-worker');
    expect(ancestorsOf(upload, spans)).toContain(process);
  });

  it('a log line written under a span carries its trace_id and span_id', async () => {
    const parent = sentParent();
    // An unknown webhook: the refusal is logged (debug) while the request's span is active.
    const answer = await call('POST', `${gatewayUrl}/v1/webhooks/1/unknown-token`, {
      headers: { traceparent: parent.traceparent },
      body: { content: 'nobody' },
    });
    expect(answer.status).toBeGreaterThanOrEqual(400);
    const line = await waitFor(
      async () =>
        gateway
          .stdout()
          .split('\n')
          .filter((text) => text.includes(parent.traceId))
          .map((text) => JSON.parse(text) as Record<string, unknown>)[0],
    );
    expect(line).toMatchObject({ trace_id: parent.traceId, requestId: answer.headers.get('x-request-id') });
    expect(line['span_id']).toMatch(/^[0-9a-f]{16}$/);
  });
});
