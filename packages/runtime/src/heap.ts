import { setFlagsFromString } from 'node:v8';

/**
 * Turns off V8's allocation-site pretenuring for this process. Our services allocate per
 * request or per job and drop it all within milliseconds, but a burst of survivors (start-up, a
 * slow round trip) can make V8 decide an allocation site's objects live long and allocate them
 * straight in the old generation from then on. Such an object (zod's parse payload is one: it
 * gets a closure per `superRefine` check) is dead at once but stays until the next full GC, and
 * everything it points at, the request's parsed body included, is then kept and promoted by every
 * scavenge (packages/bench/README.md#memory-and-garbage-collection). Taking effect at run time
 * is enough: the flag is read when a GC weighs the sites' feedback.
 */
export function keepShortLivedObjectsYoung(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}

/**
 * Node flags every service process starts with (`npm start`, compose and the image, the tests'
 * and benchmarks' spawned services; the gateway's primary gives them to its processes).
 *
 * `--no-memory-reducer`: V8's memory reducer runs a shrinking full GC when it sees the process
 * idle, and also, by its watchdog, a while after the last full GC however busy the process is.
 * That GC leaves the heap small and its next limits tight, and a server's steady promotion then
 * keeps the old generation at its limit: a gateway process under load went from an occasional
 * mark-compact to several a second, for minutes, with a far worse tail and a lower maximum
 * rate; with the flag the same load took none after start-up
 * (packages/bench/README.md#memory-and-garbage-collection). The cost: a heap grown under load
 * is not shrunk while the process idles. It must be on the command line: the reducer is set up
 * with the heap, so setting the flag at run time (as above) leaves it running.
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--no-memory-reducer'];

/** The SERVICE_NODE_FLAGS that `execArgv` (a process's Node flags) lacks. */
function missingServiceNodeFlags(execArgv: readonly string[]): string[] {
  return SERVICE_NODE_FLAGS.filter((flag) => !execArgv.includes(flag));
}

/** Whether `execArgv` has every one of SERVICE_NODE_FLAGS. */
export function hasServiceNodeFlags(execArgv: readonly string[]): boolean {
  return missingServiceNodeFlags(execArgv).length === 0;
}

/** `execArgv` with whichever of SERVICE_NODE_FLAGS it lacks, for a process this one starts. */
export function withServiceNodeFlags(execArgv: readonly string[]): string[] {
  return [...missingServiceNodeFlags(execArgv), ...execArgv];
}

/**
 * glibc's malloc serves a block of 128 KiB or more with a mapping of its own, given back when
 * freed, but each such free raises that threshold to the block's size (up to 32 MiB), and
 * blocks under it then come from heaps that keep freed pages. A process that allocates large
 * buffers and drops them (an IP ban load in the gateway, the pages and slices of an archive)
 * then sits tens of MiB above what it holds (packages/bench/README.md#gateway-memory,
 * #archive-export). Fixed at 128 KiB, large blocks come and go with their mappings. glibc reads
 * it once, at start: it is the launcher's to set (the image sets it too; other C libraries
 * ignore it).
 */
export const SERVICE_ENV: Readonly<Record<string, string>> = { MALLOC_MMAP_THRESHOLD_: String(128 * 1024) };

/** SERVICE_ENV for a process started from `env`, unless `env` already says something of malloc. */
export function serviceEnvFor(env: NodeJS.ProcessEnv): Record<string, string> {
  const set = Object.keys(env).some((name) => name.startsWith('MALLOC_') || name === 'GLIBC_TUNABLES');
  return set ? {} : { ...SERVICE_ENV };
}
