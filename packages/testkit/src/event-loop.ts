export interface EventLoopWatch {
  /** Stops watching: how many turns the loop took, and its longest block in CPU milliseconds. */
  stop(): { turns: number; longestBlockCpuMs: number };
}

/**
 * Watches this process's event loop with a 1 ms timer and keeps the longest stretch of this
 * thread's CPU time between two turns. CPU time, not wall time: on a busy machine the thread
 * may wait for a core between turns, which says nothing about how long our code held the loop.
 */
export function watchEventLoop(): EventLoopWatch {
  const cpuMicros = () => {
    const usage = process.threadCpuUsage();
    return usage.user + usage.system;
  };
  let turns = 0;
  let longestMicros = 0;
  let last = cpuMicros();
  const probe = setInterval(() => {
    const now = cpuMicros();
    longestMicros = Math.max(longestMicros, now - last);
    last = now;
    turns++;
  }, 1);
  return {
    stop() {
      clearInterval(probe);
      return { turns, longestBlockCpuMs: longestMicros / 1000 };
    },
  };
}
