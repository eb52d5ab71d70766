import type { ErrorCode } from '@terrafund/contracts';

/** The one HTTP status for each error code (conventions habit 4). */
export const statusByCode: Record<ErrorCode, number> = {
  VALIDATION_ERROR: 400,
  INVALID_JSON: 400,
  INVALID_CREDENTIALS: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
  TWO_FACTOR_REQUIRED: 403,
  GONE: 410,
};

type AppErrorExtras = { fields?: Record<string, string>; retryAfter?: number };

/** Thrown by services; the error handler turns it into `{message, code, fields?, retryAfter?}`. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly fields?: Record<string, string>;
  readonly retryAfter?: number;

  constructor(code: ErrorCode, message: string, extras: AppErrorExtras = {}) {
    super(message);
    this.name = 'AppError';
    this.code = code;
    this.status = statusByCode[code];
    this.fields = extras.fields;
    this.retryAfter = extras.retryAfter;
  }
}

export const isAppError = (error: unknown): error is AppError => error instanceof AppError;
