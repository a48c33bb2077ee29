import { ERRORS, type ErrorBody, type ErrorCode, type ValidationErrorItem } from '@switchboard/contracts';

export interface ApiErrorOptions {
  /** Replaces the table's English message, e.g. to name the missing ACL. */
  message?: string;
  /** Field problems of a 400 `INVALID_FORM_BODY`. */
  errors?: ValidationErrorItem[];
  /** Extra top-level body fields, e.g. `retry_after` and `global` on a 429. */
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
  cause?: unknown;
}

/**
 * The one error type routes throw. Its status and default message come from the contracts
 * error table, so a code always answers with the same status everywhere.
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly errors: ValidationErrorItem[] | undefined;
  readonly extraBody: Record<string, unknown>;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, options: ApiErrorOptions = {}) {
    super(options.message ?? ERRORS[code].message, { cause: options.cause });
    this.name = 'ApiError';
    this.code = code;
    this.status = ERRORS[code].status;
    this.errors = options.errors;
    this.extraBody = options.body ?? {};
    this.headers = options.headers ?? {};
  }

  toBody(): ErrorBody {
    return {
      ...this.extraBody,
      code: this.code,
      message: this.message,
      ...(this.errors ? { errors: this.errors } : {}),
    };
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
