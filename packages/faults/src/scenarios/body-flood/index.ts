import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { request } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { createPool } from '@switchboard/db';
import { MAX_JSON_VALUES } from '@switchboard/http';
import { createWebhookFixture } from '@switchboard/testkit/webhooks';
import { processTreeMemoryMiB } from '@switchboard/testkit/processes';
import type { TestEnvironment } from '@switchboard/testkit/environment';
import { ScenarioProcesses } from '../../processes.ts';
import type { Scenario, ScenarioContext, ScenarioResult } from '../../types.ts';

export interface BodyFloodOptions {
  /** Bodies in flight at once. */
  concurrency: number;
  /** Bytes of each body (the 25 MiB limit in the issue's run). */
  bodyBytes: number;
  /** Bodies sent in all. */
  total: number;
  /**
   * Where they go: `unknown`, webhook ids nobody has (issue 12's flood, refused unread since
   * they are declared over 1 MiB); `known`, one real webhook with its token, so every body is
   * read and parsed before its 400.
   */
  target: 'unknown' | 'known';
}

/** The issue's bounds: /healthz answers within 50 ms under the flood, and memory stays bounded. */
const HEALTH_BOUND_MS = 50;
/** Per gateway process: each is a replica of its own, with its share of the body budget. */
const RSS_BOUND_MB = 1_024;
const PROBE_EVERY_MS = 10;
/**
 * Untimed probes before the timed ones: the first few answers are slow for reasons of the probe
 * process and of code paths nobody ran yet, even with the gateway idle before the flood
 * (packages/bench/README.md#execution-bodies-under-the-body-flood).
 */
const WARM_UP_PROBES = 50;

/**
 * The costliest body the gateway still parses: as many small numbers as a document may hold
 * (MAX_JSON_VALUES; one more and it is refused before the parse) in one array, every element a
 * value to build, then one string filling the rest. Valid JSON, so nothing stops it before the
 * parse; a body of `bytes` too short for that many numbers is numbers only.
 */
export function costlyBody(bytes: number): Buffer {
  const body = Buffer.alloc(bytes, '1,');
  // `[11,1,1,…,1]`: the bracket takes the first digit's place, so the second byte (a comma
  // after `[` would make the body invalid at once) becomes a digit. The kth number (k ≥ 2)
  // sits at offset 2k, its comma at 2k + 1.
  body[0] = '['.charCodeAt(0);
  body[1] = '1'.charCodeAt(0);
  body[bytes - 1] = ']'.charCodeAt(0);
  const fillerStart = 2 * (MAX_JSON_VALUES - 1) + 2;
  if (fillerStart + 2 <= bytes - 1) {
    // `…,1,"xxxx…x"]`: the filler string starts after the last number's comma.
    body.fill('x', fillerStart, bytes - 1);
    body[fillerStart] = '"'.charCodeAt(0);
    body[bytes - 2] = '"'.charCodeAt(0);
  } else if (body[bytes - 2] === ','.charCodeAt(0)) body[bytes - 2] = '1'.charCodeAt(0);
  return body;
}

/** The execute URL the `index`th body goes to: a webhook id of its own nobody has, or the real webhook's. */
type FloodTarget = (index: number) => string;

/** POSTs `body` to `url`, answering the status (0 when the connection failed). */
function postBody(url: string, body: Buffer): Promise<number> {
  return new Promise((resolve) => {
    const sent = request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
    });
    sent.on('response', (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    sent.on('error', () => resolve(0));
    sent.end(body);
  });
}

/**
 * Probes `/healthz` every PROBE_EVERY_MS from a process of its own (this one is busy sending the
 * flood, which would add its own delays to the figures) until stopped; answers the latencies.
 * `timing` settles once the warm-up probes are done and the timed ones begin.
 */
function probeHealth(url: string): { timing: Promise<void>; stop(): Promise<number[]> } {
  const script = `
    const latencies = [];
    let running = true;
    process.on('message', () => { running = false; });
    const probe = () => fetch(${JSON.stringify(`${url}/healthz`)}).then((answer) => answer.arrayBuffer());
    (async () => {
      // Untimed: the first fetch loads this process's HTTP client and opens its connection.
      for (let i = 0; i < ${WARM_UP_PROBES}; i++) {
        await probe();
        await new Promise((resolve) => setTimeout(resolve, ${PROBE_EVERY_MS}));
      }
      process.send('timing');
      while (running) {
        const started = performance.now();
        await probe();
        latencies.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, ${PROBE_EVERY_MS}));
      }
      process.send(latencies, () => process.exit(0));
    })();`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  const exited = new Promise<never>((_resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`health probe exited with ${code}`)));
  });
  exited.catch(() => {});
  const timing = Promise.race([once(child, 'message').then(() => undefined), exited]);
  const result = timing.then(() =>
    Promise.race([once(child, 'message').then(([latencies]) => latencies as number[]), exited]),
  );
  return {
    timing,
    stop: () => {
      child.send('stop');
      return result;
    },
  };
}

function percentile(sorted: number[], fraction: number): number {
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!;
}

async function floodTarget(
  environment: TestEnvironment,
  gatewayUrl: string,
  target: BodyFloodOptions['target'],
): Promise<FloodTarget> {
  if (target === 'unknown')
    return (index) => `${gatewayUrl}/v1/webhooks/${900_000_000_000_000_000n + BigInt(index)}/${'t'.repeat(64)}`;
  const pool = createPool({ connectionString: environment.databaseUrl, max: 1 });
  try {
    const hook = await createWebhookFixture(pool);
    return () => `${gatewayUrl}/v1/webhooks/${hook.webhookId}/${hook.token}`;
  } finally {
    await pool.end();
  }
}

async function runFlood({ environment, log }: ScenarioContext, options: BodyFloodOptions): Promise<ScenarioResult> {
  const processes = new ScenarioProcesses((extra) => environment.processEnv(extra));
  try {
    const gateway = await processes.gateway({ RATE_LIMITS_ENABLED: 'true' });
    const target = await floodTarget(environment, gateway.url, options.target);
    const body = costlyBody(options.bodyBytes);
    const probe = probeHealth(gateway.url);
    await probe.timing;
    // The probe's first timed answers come before the flood: a baseline, and proof it runs.
    await sleep(200);
    log(
      `body-flood: ${options.total} bodies of ${Math.round(options.bodyBytes / 1024 / 1024)} MiB, ${options.concurrency} at a time`,
    );
    const statuses = new Map<number, number>();
    let next = 0;
    await Promise.all(
      Array.from({ length: options.concurrency }, async () => {
        while (next < options.total) {
          const status = await postBody(target(next++), body);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      }),
    );
    const latencies = await probe.stop();
    const sorted = [...latencies].sort((a, b) => a - b);
    // The primary and each gateway process, each at its own peak.
    const peaks = await processTreeMemoryMiB(gateway.process.child.pid!, 'VmHWM');
    const rss = Math.round(Math.max(...peaks));
    const summed = Math.round(peaks.reduce((total, peak) => total + peak, 0));
    const p99 = percentile(sorted, 0.99);
    const max = sorted.at(-1) ?? 0;
    const histogram = [...statuses]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}×${count}`)
      .join(' ');
    const problems = [
      ...(max > HEALTH_BOUND_MS ? [`/healthz took ${Math.round(max)} ms at worst (bound ${HEALTH_BOUND_MS} ms)`] : []),
      ...(rss > RSS_BOUND_MB ? [`a gateway process peaked at ${rss} MiB RSS (bound ${RSS_BOUND_MB} MiB)`] : []),
      ...(Number.isNaN(rss) ? ["the gateway processes' memory could not be read"] : []),
      ...([...statuses.keys()].some((status) => status >= 500 && status !== 503) ? ['a 5xx other than 503'] : []),
      ...(statuses.has(0) ? ['a connection failed without an answer'] : []),
    ];
    return {
      scenario: scenarioName(options),
      load: `${options.total} bodies of ${Math.round(options.bodyBytes / 1024 / 1024)} MiB to ${targetDescription(options)}, ${options.concurrency} at a time`,
      fault: 'hostile client (costliest JSON to parse)',
      figures: [
        ['answers', histogram],
        ['/healthz probes', latencies.length],
        ['/healthz p99 ms', Math.round(p99)],
        ['/healthz max ms', Math.round(max)],
        ['peak RSS MiB, largest process', rss],
        [`peak RSS MiB, ${peaks.length} processes summed`, summed],
      ],
      problems,
    };
  } finally {
    await processes.stopAll();
  }
}

function scenarioName(options: BodyFloodOptions): string {
  return options.target === 'unknown' ? 'body-flood' : 'body-flood-known';
}

function targetDescription(options: BodyFloodOptions): string {
  return options.target === 'unknown' ? 'unknown webhooks' : 'one real webhook';
}

export function bodyFlood(options: BodyFloodOptions): Scenario {
  return {
    name: scenarioName(options),
    description: `${options.concurrency} concurrent ${Math.round(options.bodyBytes / 1024 / 1024)} MiB bodies to ${targetDescription(options)}: /healthz within ${HEALTH_BOUND_MS} ms, RSS bounded`,
    run: (context) => runFlood(context, options),
  };
}
