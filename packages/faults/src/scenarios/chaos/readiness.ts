import { setTimeout as sleep } from 'node:timers/promises';

const POLL_MS = 100;
const PROBE_TIMEOUT_MS = 1_000;

async function isReady(url: string): Promise<boolean> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
    await response.arrayBuffer();
    return response.status === 200;
  } catch {
    return false;
  }
}

/** A process's readiness probe, named for the verdict. */
export interface Probe {
  name: string;
  url: string;
}

/**
 * Polls every `/readyz` (read afresh each round: a process replaced meanwhile has another port)
 * until all answer 200 in one round; answers when that was, on `clock` (null after
 * `timeoutMs`), and which were not ready in the last round.
 */
export async function allReadyAt(
  probes: () => Probe[],
  clock: () => number,
  timeoutMs: number,
): Promise<{ at: number | null; notReady: string[] }> {
  const deadline = clock() + timeoutMs;
  let notReady: string[] = [];
  while (clock() < deadline) {
    const round = probes();
    const answers = await Promise.all(round.map((probe) => isReady(probe.url)));
    notReady = round.filter((_probe, index) => !answers[index]).map((probe) => probe.name);
    if (notReady.length === 0) return { at: clock(), notReady };
    await sleep(POLL_MS);
  }
  return { at: null, notReady };
}
