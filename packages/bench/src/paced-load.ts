import { randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { latencySummary, type Measurement } from './measure.ts';

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
/** A free socket's longest idle time, unless the server announces a shorter one. */
const IDLE_SOCKET_TIMEOUT_MS = 60_000;

/**
 * An open-loop load at a steady rate, as wrk2 makes one: request i is due at start + i / rate
 * and is sent then (or as soon as a connection is free), and its latency runs from when it was
 * due, not from when it left, so a stall is charged to every request it delayed (no coordinated
 * omission). autocannon's `overallRate` is no such load: each connection sends its share of a
 * second as fast as it can and then waits for the next second, so "half the maximum rate" is
 * bursts at the full rate.
 */
export async function measurePaced(target: PacedRequest, options: PacedOptions): Promise<Measurement> {
  // With a timeout, Node's agent honours the server's `Keep-Alive: timeout=5` and drops an idle
  // socket a second before the server does, as undici does; without one it keeps idle sockets
  // forever, and a request sent on one the server is closing fails (ECONNRESET).
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections, timeout: IDLE_SOCKET_TIMEOUT_MS });
  const body = target.body === undefined ? undefined : Buffer.from(target.body);
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  const errorCodes: Record<string, number> = {};
  let inFlight = 0;

  const send = (dueAt: number) => {
    inFlight += 1;
    const headers: Record<string, string> = { ...target.headers, ...(body ? { 'content-length': String(body.length) } : {}) };
    if (target.uniqueHeader) headers[target.uniqueHeader] = randomUUID();
    const onAnswered = (status: string) => {
      inFlight -= 1;
      statusCodes[status] = (statusCodes[status] ?? 0) + 1;
      latencies.push(performance.now() - dueAt);
    };
    const onFailed = (error: NodeJS.ErrnoException) => {
      inFlight -= 1;
      const code = error.code ?? error.message;
      errorCodes[code] = (errorCodes[code] ?? 0) + 1;
    };
    const sent = request(target.url, { method: target.method, headers, agent }, (response) => {
      response.resume();
      response.once('end', () => onAnswered(String(response.statusCode)));
    });
    sent.once('error', onFailed);
    sent.end(body);
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
  agent.destroy();

  const answered = latencies.length;
  const non2xx = Object.entries(statusCodes).reduce((sum, [status, count]) => (status.startsWith('2') ? sum : sum + count), 0);
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
