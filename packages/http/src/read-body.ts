import type { IncomingHttpHeaders } from 'node:http';
import type { Request } from 'express';
import { ApiError } from './api-error.ts';

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
 * milliseconds (/healthz answered in 62-129 ms at worst under the body flood, 31-38 ms with
 * turns). Call once the body is being read. `moreToCome` tells whether the body goes on past
 * the chunk just read, so a body complete in one chunk (most webhooks) waits for nothing; when
 * it reads what the reader's own 'data' listener counts, register that listener first. The
 * returned stop() ends the turns, a pending resume included, so a connection paused for
 * closing stays paused.
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
export function readDeclaredBody(req: Request, limitBytes: number): Promise<Buffer> | undefined {
  const declared = declaredBodyBytes(req.headers);
  if (declared === undefined) return undefined;
  if (declared > limitBytes) return Promise.reject(new ApiError('PAYLOAD_TOO_LARGE'));
  return new Promise<Buffer>((resolve, reject) => {
    const body = Buffer.allocUnsafe(declared);
    let received = 0;
    const fail = (error: ApiError) => {
      cleanUp();
      // Whatever else arrives is read and dropped, so the connection can still answer.
      req.resume();
      reject(error);
    };
    const onData = (chunk: Buffer) => {
      if (received + chunk.length > declared) return fail(new ApiError('INVALID_FORM_BODY', { message: 'Request body is longer than its Content-Length.' }));
      chunk.copy(body, received);
      received += chunk.length;
    };
    const onEnd = () => {
      cleanUp();
      if (received !== declared) reject(new ApiError('INVALID_FORM_BODY', { message: 'Request body is shorter than its Content-Length.' }));
      else resolve(body);
    };
    const onAborted = () => fail(new ApiError('INVALID_FORM_BODY', { message: 'Request body could not be read.' }));
    const cleanUp = () => {
      stopTurns();
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
    req.on('end', onEnd);
    req.on('error', onAborted);
    req.on('close', onClose);
  });
}
