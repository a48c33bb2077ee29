import { describe, expect, it } from 'vitest';
import { CircuitOpenError, createCircuitBreaker, onCircuitChange, openCircuits } from '../src/index.ts';

const outage = Object.assign(new Error('Query read timeout'), { outage: true });
const rowError = new Error('violates check constraint');

function breakerAt() {
  let clock = 0;
  const changes: string[] = [];
  const breaker = createCircuitBreaker({
    name: 'postgres',
    isOutage: (error) => (error as { outage?: boolean }).outage === true,
    openMs: 1000,
    onChange: (state) => changes.push(state),
    now: () => clock,
  });
  return { breaker, changes, advance: (ms: number) => (clock += ms) };
}

describe('createCircuitBreaker', () => {
  it('lets calls through while closed, and stays closed on errors that are not outages', async () => {
    const { breaker } = breakerAt();
    expect(await breaker.run(async () => 1)).toBe(1);
    await expect(breaker.run(async () => Promise.reject(rowError))).rejects.toBe(rowError);
    expect(breaker.state).toBe('closed');
  });

  it('opens on an outage and then fails every call at once, without running it', async () => {
    const { breaker, changes } = breakerAt();
    await expect(breaker.run(async () => Promise.reject(outage))).rejects.toBe(outage);
    let ran = 0;
    await expect(breaker.run(async () => ++ran)).rejects.toBeInstanceOf(CircuitOpenError);
    expect(ran).toBe(0);
    expect(changes).toEqual(['open']);
  });

  it('lets one probe through per interval; its success closes the circuit', async () => {
    const { breaker, changes, advance } = breakerAt();
    await expect(breaker.run(async () => Promise.reject(outage))).rejects.toBe(outage);
    advance(1000);
    let release: () => void = () => {};
    const probe = breaker.run(() => new Promise<string>((resolve) => (release = () => resolve('back'))));
    // While the probe is out, the others still fail fast.
    await expect(breaker.run(async () => 'other')).rejects.toBeInstanceOf(CircuitOpenError);
    release();
    expect(await probe).toBe('back');
    expect(breaker.state).toBe('closed');
    expect(await breaker.run(async () => 'normal')).toBe('normal');
    expect(changes).toEqual(['open', 'closed']);
  });

  it('keeps the circuit open for another interval when the probe meets the outage', async () => {
    const { breaker, advance } = breakerAt();
    await expect(breaker.run(async () => Promise.reject(outage))).rejects.toBe(outage);
    advance(1000);
    await expect(breaker.run(async () => Promise.reject(outage))).rejects.toBe(outage);
    advance(999);
    await expect(breaker.run(async () => 'too early')).rejects.toBeInstanceOf(CircuitOpenError);
    advance(1);
    expect(await breaker.run(async () => 'probe')).toBe('probe');
  });
});

describe('breakers of a dependency kind', () => {
  it('tell every listener of their transitions and count as open while they are', async () => {
    const seen: string[] = [];
    const stop = onCircuitChange(({ dependency, state, reason }) => seen.push(`${dependency} ${state} ${reason}`));
    let clock = 0;
    const breaker = createCircuitBreaker({
      name: 'object store (test)',
      dependency: 'object-store',
      isOutage: (error) => (error as { outage?: boolean }).outage === true,
      openMs: 1000,
      now: () => clock,
    });
    const before = openCircuits()['object-store'];
    try {
      await expect(breaker.run(async () => Promise.reject(outage))).rejects.toBe(outage);
      expect(openCircuits()['object-store']).toBe(before + 1);
      clock += 1000;
      expect(await breaker.run(async () => 'back')).toBe('back');
      expect(openCircuits()['object-store']).toBe(before);
      expect(seen).toEqual(['object-store open Query read timeout', 'object-store closed a call succeeded']);
    } finally {
      stop();
    }
    // A breaker of no kind (a test's own) is not reported.
    const quiet = createCircuitBreaker({ name: 'unnamed', isOutage: () => true, openMs: 1000 });
    await expect(quiet.run(async () => Promise.reject(outage))).rejects.toBe(outage);
    expect(seen).toHaveLength(2);
  });
});
