import { CircuitOpenError, isNetworkFailure } from '@switchboard/circuit-breaker';

/**
 * Errors that belong to the rows of a statement rather than to the database or the
 * connection: data exceptions (SQLSTATE class 22: a NUL byte, a value out of range),
 * integrity violations (23: a check or foreign key) and transaction conflicts (40: a deadlock
 * or serialization failure, which a smaller statement may well avoid). Running the statement
 * again, or its rows one by one, can succeed; anything else (a timeout, a lost connection, a
 * database shutting down) fails the same way however the rows are split.
 */
export function isRowError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^(22|23|40)[0-9A-Z]{3}$/.test(code);
}

/** pg's own messages for a connection it lost, could not open or stopped waiting on. */
const LOST_CONNECTION =
  /Query read timeout|Connection terminated|timeout exceeded when trying to connect|is not queryable|Connection ended unexpectedly/;

/**
 * The connection is gone or cannot be trusted any more: a network failure, a server shutting
 * down (SQLSTATE class 08 and 57P01–57P04), pg giving up on a silent server, or the pool's
 * circuit breaker refusing to try while the server is known to be unreachable.
 */
export function isConnectionFailure(error: unknown): boolean {
  if (error instanceof CircuitOpenError || isNetworkFailure(error)) return true;
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && /^(08[0-9A-Z]{3}|57P0[1-4])$/.test(code)) return true;
  return typeof message === 'string' && LOST_CONNECTION.test(message);
}

/**
 * The database cannot serve right now, which says nothing about the request: the connection
 * failed, a statement ran into its timeout (57014), or the server is out of connections or
 * resources (class 53). Callers answer 503 and the client retries later.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return isConnectionFailure(error) || code === '57014' || (typeof code === 'string' && /^53[0-9A-Z]{3}$/.test(code));
}
