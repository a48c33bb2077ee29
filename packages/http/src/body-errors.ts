import { ApiError } from './api-error.ts';

/** The shape of the http-errors objects body-parser and raw-body pass to `next`. */
interface HttpLikeError {
  status: number;
  type?: string;
  expose?: boolean;
}

function isHttpLikeError(error: unknown): error is HttpLikeError {
  if (error === null || typeof error !== 'object') return false;
  const status = (error as { status?: unknown }).status;
  return typeof status === 'number' && Number.isInteger(status);
}

/** The 400 for a body (or a form field holding a document, at `path`) that is not JSON, wherever JSON is read. */
export function notJsonError(path = 'root'): ApiError {
  return new ApiError('INVALID_FORM_BODY', {
    errors: [{ path, message: 'Request body is not valid JSON.', code: 'INVALID_FORMAT' }],
  });
}

/**
 * Maps a body-parser/raw-body error to our error model, or returns undefined when `error` is not
 * one. Only client errors are mapped; anything else stays an internal error.
 */
export function fromBodyParserError(error: unknown): ApiError | undefined {
  if (!isHttpLikeError(error) || error.status < 400 || error.status >= 500) return undefined;
  switch (error.type) {
    case 'entity.parse.failed':
      return notJsonError();
    case 'entity.too.large':
      return new ApiError('PAYLOAD_TOO_LARGE');
    case 'charset.unsupported':
      return new ApiError('UNSUPPORTED_MEDIA_TYPE', { message: 'Unsupported charset: JSON bodies must be UTF-8.' });
    case 'encoding.unsupported':
      return new ApiError('UNSUPPORTED_MEDIA_TYPE', { message: 'Unsupported Content-Encoding.' });
  }
  if (error.status === 413) return new ApiError('PAYLOAD_TOO_LARGE');
  if (error.status === 415) return new ApiError('UNSUPPORTED_MEDIA_TYPE');
  // Aborted uploads, a length that does not match Content-Length, corrupt gzip data, …
  if (error.expose === true) return new ApiError('INVALID_FORM_BODY', { message: 'Request body could not be read.' });
  return undefined;
}
