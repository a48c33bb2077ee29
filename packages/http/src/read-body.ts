import type { IncomingHttpHeaders } from 'node:http';
import type { Transform } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Request } from 'express';
import { ApiError } from './api-error.ts';
import { watchBodyArrival, type BodyTimeouts } from './body-arrival.ts';

/** Whether the body is sent with a Content-Encoding other than identity: it inflates once read. */
export function isContentEncoded(headers: IncomingHttpHeaders): boolean {
  const encoding = headers['content-encoding'];
  return encoding !== undefined && encoding !== 'identity';
}

/**
 * The bytes a body will have once read, when its headers say so in advance: a Content-Length,
 * not chunked, not compressed (a Content-Encoding inflates). Undefined otherwise.
 */
export function declaredBodyBytes(headers: IncomingHttpHeaders): number | undefined {
  if (isContentEncoded(headers)) return undefined;
  const declared = Number(headers['content-length']);
  if (headers['transfer-encoding'] !== undefined || !Number.isSafeInteger(declared) || declared < 0) return undefined;
  return declared;
}

/**
 * Makes an upload take turns with every other request: after each chunk the request pauses
 * until the event loop's next turn. libuv reads up to 32 chunks of 64 KiB from each readable
 * socket in one turn, so ten 25 MiB uploads arriving at once made single turns of tens of
 * milliseconds, and /healthz waited behind them under the body flood
 * (packages/bench/README.md#execution-bodies-under-the-body-flood). Call once the body is being
 * read. `moreToCome` tells whether the body goes on past the chunk just read, so a body
 * complete in one chunk (most webhooks) waits for nothing; when it reads what the reader's own
 * 'data' listener counts, register that listener first. The returned stop() ends the turns, a
 * pending resume included, so a connection paused for closing stays paused.
 */
export function readInTurns(req: Request, moreToCome: () => boolean = () => !req.complete): () => void {
  let reading = true;
  const onData = () => {
    if (!moreToCome()) return;
    req.pause();
    setImmediate(() => {
      if (reading) req.resume();
    });
  };
  req.on('data', onData);
  return () => {
    reading = false;
    req.off('data', onData);
  };
}

/**
 * Reads a body whose size is declared (Content-Length, no Content-Encoding) straight into one
 * Buffer of that size, each chunk copied once into place as it arrives: no list of chunks held
 * until the end and no concatenation of 25 MiB at once (which stalls the event loop and leaves
 * the garbage collector hundreds of chunks per body). Undefined when the size is not declared
 * (chunked, compressed): the caller reads it the general way.
 */
export function readDeclaredBody(
  req: Request,
  limitBytes: number,
  timeouts?: BodyTimeouts,
): Promise<Buffer> | undefined {
  const declared = declaredBodyBytes(req.headers);
  if (declared === undefined) return undefined;
  if (declared > limitBytes) return Promise.reject(new ApiError('PAYLOAD_TOO_LARGE'));
  return new Promise<Buffer>((resolve, reject) => {
    const body = Buffer.allocUnsafe(declared);
    let received = 0;
    const fail = (error: ApiError, drain = true) => {
      cleanUp();
      // Whatever else arrives is read and dropped, so the connection can still answer.
      if (drain) req.resume();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      if (received + chunk.length > declared)
        return fail(new ApiError('INVALID_FORM_BODY', { message: 'Request body is longer than its Content-Length.' }));
      chunk.copy(body, received);
      received += chunk.length;
    };
    const onEnd = () => {
      cleanUp();
      if (received !== declared)
        reject(new ApiError('INVALID_FORM_BODY', { message: 'Request body is shorter than its Content-Length.' }));
      else resolve(body);
    };
    const onAborted = () => fail(new ApiError('INVALID_FORM_BODY', { message: 'Request body could not be read.' }));
    const cleanUp = () => {
      stopTurns();
      stopWatch();
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onAborted);
      req.off('close', onClose);
    };
    const onClose = () => {
      if (!req.complete) onAborted();
    };
    req.on('data', onData);
    const stopTurns = readInTurns(req, () => received < declared);
    // A stalled sender is not waited for: nothing more is read from it.
    const stopWatch = timeouts
      ? watchBodyArrival(req, timeouts, () => fail(new ApiError('REQUEST_TIMEOUT'), false))
      : () => {};
    req.on('end', onEnd);
    req.on('error', onAborted);
    req.on('close', onClose);
  });
}

/**
 * Decoders of the Content-Encodings taken. zstd is not one: its frames may ask the decoder for
 * a window of up to 128 MiB from a few bytes, beyond what the body budget counts.
 */
const DECODERS: Record<string, () => Transform> = {
  gzip: createGunzip,
  deflate: createInflate,
  br: createBrotliDecompress,
};

export interface StreamedBodyOptions {
  /** Largest body in bytes once decoded; past it the read fails with 413 PAYLOAD_TOO_LARGE. */
  limitBytes: number;
  /** Takes `bytes` more for the body as they are held (decoded); false refuses it with `overBudget()`. */
  take?(bytes: number): boolean;
  /** The error a body refused by `take` fails with. */
  overBudget?(): unknown;
  /** Past them the read fails with 408 REQUEST_TIMEOUT. */
  timeouts?: BodyTimeouts;
}

/**
 * Reads a body whose size is not declared (chunked) or that is compressed (gzip, deflate, br),
 * decoding it as it arrives. Its decoded bytes are counted against `limitBytes` and taken
 * (`take`) as they come, so a compressed body holds what it has inflated to so far, never the
 * whole limit for a header. Fails with 415 for another Content-Encoding, 413 past the limit,
 * 400 for data that does not decode (a truncated gzip stream included) or a body cut short,
 * 408 past `timeouts`. On failure nothing more is read: the caller answers and closes.
 */
export function readStreamedBody(req: Request, options: StreamedBodyOptions): Promise<Buffer> {
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase();
  const makeDecoder = encoding === 'identity' ? undefined : DECODERS[encoding];
  if (encoding !== 'identity' && makeDecoder === undefined) {
    return Promise.reject(new ApiError('UNSUPPORTED_MEDIA_TYPE', { message: 'Unsupported Content-Encoding.' }));
  }
  return new Promise<Buffer>((resolve, reject) => {
    const decoder = makeDecoder?.();
    const source: NodeJS.ReadableStream = decoder ?? req;
    const chunks: Buffer[] = [];
    let length = 0;
    let settled = false;
    const finish = (error: unknown, body?: Buffer) => {
      if (settled) return;
      settled = true;
      stopTurns();
      stopWatch();
      source.off('data', onData);
      source.off('end', onEnd);
      source.off('error', onUnreadable);
      req.off('error', onUnreadable);
      req.off('close', onClose);
      if (decoder) {
        req.unpipe(decoder);
        decoder.destroy();
      }
      if (error === undefined) resolve(body!);
      else {
        req.pause();
        reject(error);
      }
    };
    const onData = (chunk: Buffer) => {
      if (length + chunk.length > options.limitBytes) return finish(new ApiError('PAYLOAD_TOO_LARGE'));
      if (options.take && !options.take(chunk.length))
        return finish(options.overBudget?.() ?? new ApiError('SERVICE_UNAVAILABLE'));
      chunks.push(chunk);
      length += chunk.length;
    };
    const onEnd = () => finish(undefined, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, length));
    const onUnreadable = () =>
      finish(new ApiError('INVALID_FORM_BODY', { message: 'Request body could not be read.' }));
    const onClose = () => {
      if (!req.complete) onUnreadable();
    };
    source.on('data', onData);
    source.on('end', onEnd);
    source.on('error', onUnreadable);
    if (decoder) req.on('error', onUnreadable);
    req.on('close', onClose);
    const stopTurns = readInTurns(req);
    const stopWatch = options.timeouts
      ? watchBodyArrival(req, options.timeouts, () => finish(new ApiError('REQUEST_TIMEOUT')))
      : () => {};
    if (decoder) req.pipe(decoder);
  });
}
