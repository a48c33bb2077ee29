import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentServer, type SilentServer } from '@switchboard/testkit/network';
import { spawnService, type ServiceProcess } from '@switchboard/testkit/processes';
import { useTestEnvironment } from '@switchboard/testkit/environment';
import { waitFor } from '@switchboard/testkit/wait';

const environment = useTestEnvironment();
/** A hung S3 endpoint makes /readyz a request that stays in flight for READY_CHECK_TIMEOUT_MS. */
let hungS3: SilentServer;

beforeAll(async () => {
  hungS3 = await silentServer();
});

afterAll(async () => {
  await hungS3?.close();
});

/**
 * A spawned gateway with a GET /readyz surely in flight (its S3 check has reached the hung
 * endpoint) when it is sent SIGTERM.
 */
async function sigtermDuringReadyz(
  shutdownTimeoutMs: string,
): Promise<{ gateway: ServiceProcess; port: number; response: Promise<Response> }> {
  const gateway = await spawnService(
    'gateway',
    environment.processEnv({
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'info',
      S3_ENDPOINT: `http://127.0.0.1:${hungS3.port}`,
      READY_CHECK_TIMEOUT_MS: '1500',
      SHUTDOWN_TIMEOUT_MS: shutdownTimeoutMs,
    }),
  );
  const port = Number(gateway.ready['port']);
  const before = hungS3.connections();
  const response = fetch(`http://127.0.0.1:${port}/readyz`);
  await waitFor(async () => hungS3.connections() > before, 10_000);
  gateway.child.kill('SIGTERM');
  return { gateway, port, response };
}

describe('graceful shutdown', () => {
  it('on SIGTERM stops accepting, answers the request in flight, and exits 0', async () => {
    const { gateway, port, response: inFlight } = await sigtermDuringReadyz('10000');

    // New connections are refused while the request in flight is still running.
    await waitFor(
      () =>
        fetch(`http://127.0.0.1:${port}/healthz`).then(
          () => false,
          () => true,
        ),
      10_000,
    );
    const response = await inFlight;
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({
      status: 'draining',
      checks: { postgres: 'ok', redis: 'ok', s3: 'timeout' },
    });
    expect(response.headers.get('connection')).toBe('close');
    expect(await gateway.exit).toMatchObject({ code: 0 });
    expect(gateway.stdout()).toContain('"drained":true');
  });

  it('cuts requests still running at SHUTDOWN_TIMEOUT_MS and exits non-zero', async () => {
    const { gateway, response } = await sigtermDuringReadyz('100');

    // Cut, not answered: left to run, /readyz would have answered at 1.5 s.
    await expect(response).rejects.toThrow();
    expect(await gateway.exit).toMatchObject({ code: 1 });
  });
});
