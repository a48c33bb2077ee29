import { measure, ratio } from '../measure.ts';
import type { Benchmark, CapturedResponse } from '../types.ts';

const PATH = '/v1/.well-known/service';
/** Set by Node on every response; copying them would send them twice. */
const NODE_OWNED_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding', 'content-length']);

async function capture(url: string): Promise<CapturedResponse> {
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`GET ${url} answered ${response.status}, expected 200`);
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!NODE_OWNED_HEADERS.has(name)) headers[name] = value;
  });
  return { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()) };
}

/**
 * The discovery document (public, cached bytes): the gateway's whole request path (request id,
 * CORS, conditional GET, rate limiter bypassed) against a bare express server that sends the
 * same bytes with the same headers. The ratio is the price of the gateway's middleware.
 */
export const discovery: Benchmark = {
  name: 'discovery',
  description: `GET ${PATH}: gateway vs a bare express 5 server answering the same bytes`,
  async run(context) {
    // One loopback client would only measure 429s with the real limits on.
    const gateway = await context.startGateway({ RATE_LIMITS_ENABLED: 'false' });
    const document = await capture(`${gateway.url}${PATH}`);
    const baseline = await context.startStaticBaseline(document);
    context.log(`discovery document: ${document.body.length} bytes; measuring the gateway`);
    const gatewayResult = await measure(`${gateway.url}${PATH}`, context.load);
    context.log('measuring the baseline');
    const baselineResult = await measure(`${baseline.url}${PATH}`, context.load);
    return {
      benchmark: 'discovery',
      notes: [
        'gateway started with RATE_LIMITS_ENABLED=false (explicit), NODE_ENV=production, LOG_LEVEL=silent, GATEWAY_PROCESSES=auto (a process per core, as on a machine serving the gateway alone)',
        `document ${document.body.length} bytes; baseline sends the same bytes and headers (${Object.keys(document.headers).join(', ')})`,
        'gateway, baseline and autocannon share this machine: compare the ratio, not absolute numbers',
      ],
      targets: [
        { target: 'gateway', url: `${gateway.url}${PATH}`, measurement: gatewayResult },
        { target: 'baseline', url: `${baseline.url}${PATH}`, measurement: baselineResult },
      ],
      ratios: {
        'gateway/baseline rps': ratio(gatewayResult.requestsPerSecond, baselineResult.requestsPerSecond),
        'gateway/baseline p99 latency': ratio(gatewayResult.latencyMs.p99, baselineResult.latencyMs.p99),
      },
    };
  },
};
