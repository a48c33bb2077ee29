/**
 * Polls every `intervalMs` (25 ms unless given) until `check` returns a value other than
 * undefined/false, or fails after the bound. A caller that needs the time it took measures it.
 */
export async function waitFor<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs = 5_000,
  intervalMs = 25,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
