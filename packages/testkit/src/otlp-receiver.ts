import { createServer } from 'node:http';
import { serveOnFreePort, type ServedApp } from './network.ts';

/** One span as a trace viewer shows it: ids in hex, kind by name, attributes flattened. */
export interface ReceivedSpan {
  /** `service.name` of the process that sent it. */
  service: string;
  traceId: string;
  spanId: string;
  /** Empty for a root span. */
  parentSpanId: string;
  name: string;
  kind: 'internal' | 'server' | 'client' | 'producer' | 'consumer' | 'unspecified';
  attributes: Record<string, unknown>;
}

export interface OtlpReceiver extends ServedApp {
  /** Every span received so far (OTLP/JSON exports; protobuf ones are only counted). */
  spans(): ReceivedSpan[];
  /** Export requests received, whatever their encoding. */
  exports(): number;
}

const KINDS: ReceivedSpan['kind'][] = ['unspecified', 'internal', 'server', 'client', 'producer', 'consumer'];

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
}
interface OtlpAttribute {
  key: string;
  value: OtlpValue;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: OtlpAttribute[];
}
interface OtlpTraces {
  resourceSpans?: { resource?: { attributes?: OtlpAttribute[] }; scopeSpans?: { spans?: OtlpSpan[] }[] }[];
}

const plainValue = (value: OtlpValue): unknown =>
  value.stringValue ??
  (value.intValue === undefined ? undefined : Number(value.intValue)) ??
  value.doubleValue ??
  value.boolValue;

const attributesOf = (list: OtlpAttribute[] = []): Record<string, unknown> =>
  Object.fromEntries(list.map(({ key, value }) => [key, plainValue(value)]));

function spansOf(body: OtlpTraces): ReceivedSpan[] {
  return (body.resourceSpans ?? []).flatMap((resourceSpans) => {
    const service = String(attributesOf(resourceSpans.resource?.attributes)['service.name'] ?? '');
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        service,
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ?? '',
        name: span.name,
        kind: KINDS[span.kind] ?? 'unspecified',
        attributes: attributesOf(span.attributes),
      })),
    );
  });
}

/**
 * An OTLP/HTTP trace receiver on a free loopback port, for processes started with
 * `OTEL_EXPORTER_OTLP_ENDPOINT` at its `url`: it keeps the spans of OTLP/JSON exports
 * (`OTEL_EXPORTER_OTLP_PROTOCOL=http/json`), unless told not to (a benchmark's load), and
 * answers every export as accepted.
 */
export async function startOtlpReceiver({ keepSpans = true }: { keepSpans?: boolean } = {}): Promise<OtlpReceiver> {
  const received: ReceivedSpan[] = [];
  let exports = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      exports += 1;
      const json = req.headers['content-type']?.includes('json') ?? false;
      if (keepSpans && req.url === '/v1/traces' && json)
        received.push(...spansOf(JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      // An empty ExportTraceServiceResponse, in either encoding: everything accepted.
      res.writeHead(200, { 'content-type': json ? 'application/json' : 'application/x-protobuf' });
      res.end(json ? '{}' : undefined);
    });
  });
  const served = await serveOnFreePort(server);
  return { ...served, spans: () => [...received], exports: () => exports };
}

/** `span` and the spans above it, nearest first, as far as `spans` holds them. */
export function ancestorsOf(span: ReceivedSpan, spans: readonly ReceivedSpan[]): ReceivedSpan[] {
  const byId = new Map(spans.map((each) => [each.spanId, each]));
  const chain: ReceivedSpan[] = [];
  for (let at: ReceivedSpan | undefined = span; at; at = byId.get(at.parentSpanId)) chain.push(at);
  return chain;
}
