/** Every error code a Tollgate deployable may answer with. */
export type ErrorCode =
  | 'BAD_REQUEST'
  | 'UNAUTHORIZED'
  | 'SUBSCRIPTION_REQUIRED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'CONFLICT'
  | 'GONE'
  | 'RATE_LIMITED'
  | 'QUOTA_EXCEEDED'
  | 'INTERNAL'
  | 'UPSTREAM_UNAVAILABLE'
  | 'STORE_UNAVAILABLE'
  | 'NOT_READY'
  | 'UPSTREAM_RATE_LIMITED'
  | 'UPSTREAM_TIMEOUT';

/**
 * The only code→HTTP status table. `NOT_READY` (503) is our addition to the architecture's list:
 * `/readyz` needs a 503 that is not about the quota store. `UPSTREAM_RATE_LIMITED` (503, sent with
 * `Retry-After`) is a service's upstream refusing calls for a while: not the client's own quota (429).
 */
export const STATUS_BY_CODE: Readonly<Record<ErrorCode, number>> = Object.freeze({
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  SUBSCRIPTION_REQUIRED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  GONE: 410,
  RATE_LIMITED: 429,
  QUOTA_EXCEEDED: 429,
  INTERNAL: 500,
  UPSTREAM_UNAVAILABLE: 502,
  STORE_UNAVAILABLE: 503,
  NOT_READY: 503,
  UPSTREAM_RATE_LIMITED: 503,
  UPSTREAM_TIMEOUT: 504,
});

/** Options of an {@link AppError}. */
export interface AppErrorOptions {
  /** Extra machine-readable facts for the client, sent as `error.details`. */
  details?: unknown;
  /** The underlying error; logged, never sent to the client. */
  cause?: unknown;
  /** Response headers to set with the error (e.g. `Retry-After`). */
  headers?: Record<string, string>;
}

/**
 * The one error type handlers throw; the error handler turns it into the error envelope.
 *
 * @example
 * throw new AppError('BAD_REQUEST', 'base must be one of usd, eur, gbp, jpy, cny', { details: { parameter: 'base' } });
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details: unknown;
  readonly headers: Record<string, string>;

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = STATUS_BY_CODE[code];
    this.details = options.details;
    this.headers = options.headers ?? {};
  }
}

/** True for an {@link AppError}, also across copies of this package. */
export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError || (value instanceof Error && value.name === 'AppError' && 'code' in value);
}
