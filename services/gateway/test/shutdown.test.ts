import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentServer, useTestEnvironment, waitFor, type SilentServer } from '@switchboard/testkit';
import { listeningPort, spawnGateway } from './helpers.ts';

const environment = useTestEnvironment();
/** A hung S3 endpoint makes /readyz a request that stays in flight for READY_CHECK_TIMEOUT_MS. */
let hungS3: SilentServer;

beforeAll(async () => {
  hungS3 = await silentServer();
});

afterAll(async () => {
  await hungS3?.close();
});

function startSpawned(extra: Record<string, string>) {
  return spawnGateway(
    environment.processEnv({
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      S3_ENDPOINT: `http://127.0.0.1:${hungS3.port}`,
      READY_CHECK_TIMEOUT_MS: '1500',
      ...extra,
    }),
  );
}

/** GET /readyz, and the moment it is surely in flight: its S3 check has reached the hung endpoint. */
function readyzInFlight(port: number): { response: Promise<Response>; reachedS3: Promise<true> } {
  const before = hungS3.connections();
  return {
    response: fetch(`http://127.0.0.1:${port}/readyz`),
    reachedS3: waitFor(async () => hungS3.connections() > before, 10_000),
  };
}

describe('graceful shutdown', () => {
  it('on SIGTERM stops accepting, answers the request in flight, and exits 0', async () => {
    const gateway = startSpawned({ SHUTDOWN_TIMEOUT_MS: '10000' });
    const port = await listeningPort(gateway);
    const inFlight = readyzInFlight(port);
    await inFlight.reachedS3;
    gateway.child.kill('SIGTERM');

    // New connections are refused while the request in flight is still running.
    await waitFor(() => fetch(`http://127.0.0.1:${port}/healthz`).then(() => false, () => true), 10_000);
    const response = await inFlight.response;
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ checks: { postgres: 'ok', redis: 'ok', s3: 'timeout' } });
    expect(response.headers.get('connection')).toBe('close');
    expect(await gateway.exit).toBe(0);
    expect(gateway.stdout()).toContain('"drained":true');
  });

  it('cuts requests still running at SHUTDOWN_TIMEOUT_MS and exits non-zero', async () => {
    const gateway = startSpawned({ SHUTDOWN_TIMEOUT_MS: '100' });
    const port = await listeningPort(gateway);
    const inFlight = readyzInFlight(port);
    await inFlight.reachedS3;
    gateway.child.kill('SIGTERM');

    // Cut, not answered: left to run, /readyz would have answered 503 at 1.5 s.
    await expect(inFlight.response).rejects.toThrow();
    expect(await gateway.exit).toBe(1);
  });
});
