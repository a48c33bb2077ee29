import { env } from '@switchboard/config';

const KiB = 1024;

/** Webhook execution's variables, spread into the gateway's schema (config.ts). */
export const executeConfigShape = {
  /** `?wait=true`: how long plain execute waits for the worker to store the message (then 504). */
  WEBHOOK_WAIT_TIMEOUT_MS: env.int(100, 60_000).default(10_000),
  /**
   * Bodies up to this size ride in the job; larger ones go to S3 and the job carries the key
   * (claim check), so Redis never holds a 25 MiB payload.
   */
  WEBHOOK_INLINE_BODY_MAX_BYTES: env.int(0, 25 * 1024 * KiB).default(64 * KiB),
  /**
   * Bodies up to this size are decoded and checked on the event loop, larger ones on a parse
   * thread (body-check.ts). Apart from WEBHOOK_INLINE_BODY_MAX_BYTES: where a body is parsed is
   * a matter of event-loop time, where it is kept one of Redis memory, and a small body sent
   * through S3 gains nothing from a hop to a thread.
   */
  WEBHOOK_PARSE_HERE_MAX_BYTES: env.int(0, 25 * 1024 * KiB).default(64 * KiB),
  /**
   * Longest a larger body may wait for a parse thread and be parsed there; past it 503 with
   * Retry-After (the thread's late verdict is dropped), and its bytes leave the body budget.
   * As long as a body may take to arrive: parsing yields to the event loops, so on a busy
   * machine a 25 MiB body takes seconds.
   */
  WEBHOOK_PARSE_TIMEOUT_MS: env.int(1, 600_000).default(20_000),
  /**
   * Bytes of execution bodies the gateway holds at once (read, parsed, being stored), split
   * evenly among its processes (GATEWAY_PROCESSES; each at least one 25 MiB body); past its
   * share a request is answered 503 with Retry-After before its body is read, so a flood of 25
   * MiB bodies costs a bounded amount of memory instead of an out-of-memory crash. A compressed
   * body counts as the 25 MiB limit; a chunked one counts its bytes as they arrive. 128 MiB: five
   * 25 MiB bodies at once in one process. With room for ten, a flood of them at a real webhook
   * took more memory and pushed /healthz past its bound
   * (packages/bench/README.md#execution-bodies-under-the-body-flood).
   */
  WEBHOOK_BODY_BUDGET_BYTES: env.int(25 * 1024 * KiB, 64 * 1024 * 1024 * KiB).default(128 * 1024 * KiB),
  /**
   * Longest an execution body may take to arrive, from when its reading starts; past it 408 and
   * the connection is closed. Code hosts and error trackers give up on a delivery after about
   * ten seconds themselves, so a body slower than this was abandoned by its sender anyway.
   */
  WEBHOOK_BODY_TIMEOUT_MS: env.int(100, 600_000).default(20_000),
  /** Longest an execution body may go without a byte (before its first one too); past it 408. */
  WEBHOOK_BODY_IDLE_TIMEOUT_MS: env.int(100, 600_000).default(5_000),
};
