import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentServer, useTestEnvironment } from '@switchboard/testkit';
import { listeningPort, spawnGateway } from './helpers.ts';

const environment = useTestEnvironment();
/** A hung S3 endpoint makes /readyz a request that stays in flight for READY_CHECK_TIMEOUT_MS. */
let hungS3: Awaited<ReturnType<typeof silentServer>>;

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

describe('graceful shutdown', () => {
  it('on SIGTERM stops accepting, answers the request in flight, and exits 0', async () => {
    const gateway = startSpawned({ SHUTDOWN_TIMEOUT_MS: '10000' });
    const port = await listeningPort(gateway);
    const inFlight = fetch(`http://127.0.0.1:${port}/readyz`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    gateway.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 200));

    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    const response = await inFlight;
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ checks: { postgres: 'ok', redis: 'ok', s3: 'timeout' } });
    expect(response.headers.get('connection')).toBe('close');
    expect(await gateway.exit).toBe(0);
    expect(gateway.stdout()).toContain('"drained":true');
  });

  it('cuts requests still running at SHUTDOWN_TIMEOUT_MS and exits non-zero', async () => {
    const gateway = startSpawned({ SHUTDOWN_TIMEOUT_MS: '100' });
    const port = await listeningPort(gateway);
    const inFlight = fetch(`http://127.0.0.1:${port}/readyz`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const signalledAt = Date.now();
    gateway.child.kill('SIGTERM');

    await expect(inFlight).rejects.toThrow();
    expect(await gateway.exit).toBe(1);
    expect(Date.now() - signalledAt).toBeLessThan(1400);
  });
});
