import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiError } from './api-error.ts';

/** Node's parser refuses a request with these before express sees it; every one is the client's. */
function errorFor(code: string | undefined): ApiError {
  if (code === 'HPE_HEADER_OVERFLOW') return new ApiError('HEADERS_TOO_LARGE');
  return new ApiError('INVALID_FORM_BODY', { message: 'The request could not be parsed as HTTP.' });
}

/**
 * Answers the requests Node's HTTP parser refuses (headers over 16 KiB: 431; a malformed request
 * line, header or chunk: 400) in the error-body shape of every other answer, instead of Node's
 * bare status line, then closes the connection: after a parse error nothing more on it can be read.
 */
export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const apiError = errorFor(error.code);
    const body = JSON.stringify(apiError.toBody());
    socket.end(
      `HTTP/1.1 ${apiError.status} ${STATUS_CODES[apiError.status]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
