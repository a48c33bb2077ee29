import { setTimeout as sleep } from 'node:timers/promises';

/** Polls `url` until it answers 200; fails when the time runs out (unless the stack is stopping). */
export async function waitForReady(url: string, timeoutMs: number, isStopping: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !isStopping()) {
    const status = await fetch(url, { signal: AbortSignal.timeout(2_000) }).then(
      async (response) => {
        await response.body?.cancel();
        return response.status;
      },
      () => 0,
    );
    if (status === 200) return;
    await sleep(250);
  }
  if (!isStopping()) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
}
