import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { latencySummary, type Measurement } from './measure.ts';
import { RawConnection } from './raw-connection.ts';

export interface PacedRequest {
  url: string;
  method: 'POST' | 'GET';
  body?: string;
  /**
   * Bodies sent in turn (request i sends bodies[i % n]) instead of `body`: operations that must
   * name something new each time, such as users to add or a guild to purge.
   */
  bodies?: string[];
  headers: Record<string, string>;
  /** Header given a fresh UUID on every request (X-GitHub-Delivery: each delivery is new). */
  uniqueHeader?: string;
  /**
   * Replicas of the same service (`http://host:port`, the path is `url`'s): connection i goes to
   * the i-th of `url`'s origin and these, in turn, as a balancer spreading connections would.
   */
  replicaOrigins?: string[];
}

export interface PacedOptions {
  requestsPerSecond: number;
  durationSeconds: number;
  /** Keep-alive connections; requests due while all are busy wait for one (and their wait counts). */
  connections: number;
  /**
   * Where in its interval each request falls, from 0 (request i due at i / rate, the default) to
   * below 1: loads of a few requests each that should not all start at the same moment.
   */
  phase?: number;
}

/** How often due requests are sent: 1 ms, the finest a Node timer ticks. */
const TICK_MS = 1;
const DRAIN_TIMEOUT_MS = 30_000;
/** Stands in for the unique header's value in the request template: a UUID's length. */
const UUID_PLACEHOLDER = '00000000-0000-0000-0000-000000000000';

interface Template {
  bytes: Buffer;
  /** Where each copy gets its fresh UUID (undefined: none). */
  uuidAt: number | undefined;
}

/** The request's bytes for one body, and where each copy gets its fresh UUID. */
function requestTemplate(target: PacedRequest, body: string | undefined): Template {
  const url = new URL(target.url);
  if (url.protocol !== 'http:') throw new Error(`measurePaced sends plain HTTP only, not ${url.protocol}`);
  const bytes = body === undefined ? Buffer.alloc(0) : Buffer.from(body);
  const lines = [`${target.method} ${url.pathname}${url.search} HTTP/1.1`, `host: ${url.host}`];
  for (const [name, value] of Object.entries(target.headers)) lines.push(`${name}: ${value}`);
  if (body !== undefined) lines.push(`content-length: ${bytes.length}`);
  let head = `${lines.join('\r\n')}\r\n`;
  let uuidAt: number | undefined;
  if (target.uniqueHeader) {
    head += `${target.uniqueHeader}: `;
    uuidAt = Buffer.byteLength(head);
    head += `${UUID_PLACEHOLDER}\r\n`;
  }
  return { bytes: Buffer.concat([Buffer.from(`${head}\r\n`), bytes]), uuidAt };
}

/** Connection i's host and port: `url`'s origin and the replicas' in turn. */
function originsOf(target: PacedRequest): Array<{ host: string; port: number }> {
  return [target.url, ...(target.replicaOrigins ?? [])].map((address) => {
    const { hostname, port } = new URL(address);
    return { host: hostname, port: Number(port) || 80 };
  });
}

/**
 * One steady stream of requests (a target at its own rate over its own connections) and what
 * became of them. Several lanes share one sending loop in a mixed load.
 */
export class PacedLane {
  readonly total: number;
  readonly latencies: number[] = [];
  readonly statusCodes: Record<string, number> = {};
  readonly errorCodes: Record<string, number> = {};
  inFlight = 0;

  private readonly templates: Template[];
  private readonly intervalMs: number;
  /** When request 0 is due, after the load's start. */
  private readonly offsetMs: number;
  /** Idle connections in turn (first in, first out), so none sits idle long enough for the server's keep-alive timeout to close it under a request. */
  private readonly idle: RawConnection[];
  private readonly all: RawConnection[];
  /** Due times of requests waiting for a free connection (their wait counts). */
  private readonly queued: number[] = [];
  private next = 0;
  private sent = 0;

  constructor(target: PacedRequest, options: PacedOptions) {
    const bodies = target.bodies ?? [target.body];
    this.templates = bodies.map((body) => requestTemplate(target, body));
    const origins = originsOf(target);
    this.all = Array.from({ length: options.connections }, (_, index) => {
      const origin = origins[index % origins.length]!;
      return new RawConnection(origin.host, origin.port);
    });
    this.idle = [...this.all];
    this.total = Math.round(options.requestsPerSecond * options.durationSeconds);
    this.intervalMs = 1000 / options.requestsPerSecond;
    this.offsetMs = (options.phase ?? 0) * this.intervalMs;
  }

  get done(): boolean {
    return this.next >= this.total;
  }

  /** Sends every request due by `now` (ms, performance.now()) of a load that started at `started`. */
  sendDue(started: number, now: number): void {
    while (this.next < this.total && started + this.offsetMs + this.next * this.intervalMs <= now) {
      this.send(started + this.offsetMs + this.intervalMs * this.next++);
    }
  }

  /** Opens every connection of the lane before its first request is due. */
  async connect(): Promise<void> {
    await Promise.all(this.all.map((connection) => connection.connect()));
  }

  close(): void {
    for (const connection of this.all) connection.destroy();
  }

  /** The lane's figures over `sentForSeconds` (how long the load sent). */
  measurement(sentForSeconds: number): Measurement {
    return summarise([this], sentForSeconds);
  }

  private send(dueAt: number): void {
    this.inFlight += 1;
    const connection = this.idle.shift();
    if (connection) this.sendOn(connection, dueAt);
    else this.queued.push(dueAt);
  }

  private sendOn(connection: RawConnection, dueAt: number): void {
    const template = this.templates[this.sent++ % this.templates.length]!;
    const request = Buffer.from(template.bytes);
    if (template.uuidAt !== undefined) request.write(randomUUID(), template.uuidAt, 'latin1');
    connection.send(request, (answer) => {
      this.inFlight -= 1;
      if ('status' in answer) {
        this.statusCodes[answer.status] = (this.statusCodes[answer.status] ?? 0) + 1;
        this.latencies.push(performance.now() - dueAt);
      } else {
        this.errorCodes[answer.error] = (this.errorCodes[answer.error] ?? 0) + 1;
      }
      const next = this.queued.shift();
      if (next === undefined) this.idle.push(connection);
      else this.sendOn(connection, next);
    });
  }
}

function addCounts(into: Record<string, number>, from: Record<string, number>): void {
  for (const [key, count] of Object.entries(from)) into[key] = (into[key] ?? 0) + count;
}

/** The figures of one lane, or of several taken together (their latencies pooled). */
export function summarise(lanes: readonly PacedLane[], sentForSeconds: number): Measurement {
  const statusCodes: Record<string, number> = {};
  const errorCodes: Record<string, number> = {};
  for (const lane of lanes) {
    addCounts(statusCodes, lane.statusCodes);
    addCounts(errorCodes, lane.errorCodes);
  }
  const latencies = lanes.flatMap((lane) => lane.latencies);
  const non2xx = Object.entries(statusCodes).reduce(
    (sum, [status, count]) => (status.startsWith('2') ? sum : sum + count),
    0,
  );
  return {
    requestsPerSecond: latencies.length / sentForSeconds,
    latencyMs: latencySummary(latencies),
    requests: latencies.length,
    non2xx,
    statusCodes,
    errors: Object.values(errorCodes).reduce((sum, count) => sum + count, 0),
    errorCodes,
    timeouts: lanes.reduce((sum, lane) => sum + lane.inFlight, 0),
    bytesPerSecond: 0,
    durationSeconds: sentForSeconds,
  };
}

/**
 * Runs the lanes' requests at their due times from one loop until each has sent its total,
 * then waits (bounded) for the answers still out; answers how long it sent, in seconds.
 */
export async function runLanes(lanes: readonly PacedLane[]): Promise<number> {
  const started = performance.now();
  while (lanes.some((lane) => !lane.done)) {
    const now = performance.now();
    for (const lane of lanes) lane.sendDue(started, now);
    await sleep(TICK_MS);
  }
  const sentFor = (performance.now() - started) / 1000;
  const drainStarted = performance.now();
  const inFlight = () => lanes.some((lane) => lane.inFlight > 0);
  while (inFlight() && performance.now() - drainStarted < DRAIN_TIMEOUT_MS) await sleep(TICK_MS);
  for (const lane of lanes) lane.close();
  return sentFor;
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
  const lane = new PacedLane(target, options);
  const sentFor = await runLanes([lane]);
  return lane.measurement(sentFor);
}
