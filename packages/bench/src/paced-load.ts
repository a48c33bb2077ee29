import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { latencySummary, type Measurement } from './measure.ts';
import { RawConnection } from './raw-connection.ts';

export interface PacedRequest {
  url: string;
  method: 'POST' | 'GET';
  body?: string;
  headers: Record<string, string>;
  /** Header given a fresh UUID on every request (X-GitHub-Delivery: each delivery is new). */
  uniqueHeader?: string;
}

export interface PacedOptions {
  requestsPerSecond: number;
  durationSeconds: number;
  /** Keep-alive connections; requests due while all are busy wait for one (and their wait counts). */
  connections: number;
}

/** How often due requests are sent: 1 ms, the finest a Node timer ticks. */
const TICK_MS = 1;
const DRAIN_TIMEOUT_MS = 30_000;
/** Stands in for the unique header's value in the request template: a UUID's length. */
const UUID_PLACEHOLDER = '00000000-0000-0000-0000-000000000000';

/** The request's bytes, and where each copy gets its fresh UUID (undefined: none). */
function requestTemplate(target: PacedRequest): { bytes: Buffer; uuidAt: number | undefined } {
  const url = new URL(target.url);
  if (url.protocol !== 'http:') throw new Error(`measurePaced sends plain HTTP only, not ${url.protocol}`);
  const body = target.body === undefined ? Buffer.alloc(0) : Buffer.from(target.body);
  const lines = [`${target.method} ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`];
  for (const [name, value] of Object.entries(target.headers)) lines.push(`${name}: ${value}`);
  if (target.body !== undefined) lines.push(`content-length: ${body.length}`);
  let head = `${lines.join('\r\n')}\r\n`;
  let uuidAt: number | undefined;
  if (target.uniqueHeader) {
    head += `${target.uniqueHeader}: `;
    uuidAt = Buffer.byteLength(head);
    head += `${UUID_PLACEHOLDER}\r\n`;
  }
  return { bytes: Buffer.concat([Buffer.from(`${head}\r\n`), body]), uuidAt };
}

/**
 * An open-loop load at a steady rate, as wrk2 makes one: request i is due at start + i / rate
 * and is sent then (or as soon as a connection is free), and its latency runs from when it was
 * due, not from when it left, so a stall is charged to every request it delayed (no coordinated
 * omission). autocannon's `overallRate` is no such load: each connection sends its share of a
 * second as fast as it can and then waits for the next second, so "half the maximum rate" is
 * bursts at the full rate. Sent over raw keep-alive connections (RawConnection), so the load
 * generator takes little of the CPU the target shares.
 */
export async function measurePaced(target: PacedRequest, options: PacedOptions): Promise<Measurement> {
  const template = requestTemplate(target);
  const { hostname, port } = new URL(target.url);
  // Idle connections in turn (first in, first out), so none sits idle long enough for the
  // server's keep-alive timeout to close it under a request.
  const idle = Array.from({ length: options.connections }, () => new RawConnection(hostname, Number(port) || 80));
  const all = [...idle];
  /** Due times of requests waiting for a free connection (their wait counts). */
  const queued: number[] = [];
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  const errorCodes: Record<string, number> = {};
  let inFlight = 0;

  const sendOn = (connection: RawConnection, dueAt: number) => {
    const request = Buffer.from(template.bytes);
    if (template.uuidAt !== undefined) request.write(randomUUID(), template.uuidAt, 'latin1');
    connection.send(request, (answer) => {
      inFlight -= 1;
      if ('status' in answer) {
        statusCodes[answer.status] = (statusCodes[answer.status] ?? 0) + 1;
        latencies.push(performance.now() - dueAt);
      } else {
        errorCodes[answer.error] = (errorCodes[answer.error] ?? 0) + 1;
      }
      const next = queued.shift();
      if (next === undefined) idle.push(connection);
      else sendOn(connection, next);
    });
  };
  const send = (dueAt: number) => {
    inFlight += 1;
    const connection = idle.shift();
    if (connection) sendOn(connection, dueAt);
    else queued.push(dueAt);
  };

  const total = Math.round(options.requestsPerSecond * options.durationSeconds);
  const intervalMs = 1000 / options.requestsPerSecond;
  const started = performance.now();
  let next = 0;
  while (next < total) {
    const now = performance.now();
    while (next < total && started + next * intervalMs <= now) send(started + intervalMs * next++);
    await sleep(TICK_MS);
  }
  const sentFor = (performance.now() - started) / 1000;
  const drainStarted = performance.now();
  while (inFlight > 0 && performance.now() - drainStarted < DRAIN_TIMEOUT_MS) await sleep(TICK_MS);
  for (const connection of all) connection.destroy();

  const answered = latencies.length;
  const non2xx = Object.entries(statusCodes).reduce(
    (sum, [status, count]) => (status.startsWith('2') ? sum : sum + count),
    0,
  );
  return {
    requestsPerSecond: answered / sentFor,
    latencyMs: latencySummary(latencies),
    requests: answered,
    non2xx,
    statusCodes,
    errors: Object.values(errorCodes).reduce((sum, count) => sum + count, 0),
    errorCodes,
    timeouts: inFlight,
    bytesPerSecond: 0,
    durationSeconds: sentFor,
  };
}
