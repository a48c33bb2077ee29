import { setTimeout as sleep } from 'node:timers/promises';
import { describeExit, type Child } from './child.ts';

/** Polls `url` until it answers 200; fails if the child exits or the time runs out. */
export async function waitForReady(url: string, child: Child, timeoutMs: number, isStopping: () => boolean): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !isStopping()) {
    if (child.hasExited()) throw new Error(`${child.name} ${describeExit(await child.exited)} before it was ready`);
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
