import type { ErrorRequestHandler, RequestHandler } from 'express';
import { AppError, isAppError } from './app-error';
import { errorEnvelope, requestIdOf } from './envelope';
import { summarizeError } from './error-summary';
import type { Logger } from './logger';

/** Shape of the errors body-parser and http-errors raise. */
interface HttpLibraryError {
  status?: number;
  statusCode?: number;
  type?: string;
  expose?: boolean;
  message: string;
  limit?: number;
}

// Known library errors become client errors with a message that says what to fix.
function fromLibraryError(err: HttpLibraryError): AppError | undefined {
  const status = err.status ?? err.statusCode;
  if (err.type === 'entity.parse.failed') {
    return new AppError('BAD_REQUEST', 'request body is not valid JSON', { cause: err });
  }
  if (err.type === 'entity.too.large') {
    const limit = err.limit === undefined ? 'the size limit' : `the ${err.limit} byte limit`;
    return new AppError('BAD_REQUEST', `request body is larger than ${limit}`, { cause: err });
  }
  // Only an error that says it may be shown (http-errors sets `expose` on every 4xx it makes), or
  // the router's URIError for a path parameter it cannot decode: an SDK's error (Stripe's) carries
  // the status its provider answered the server, and a message meant for the server.
  if (typeof status === 'number' && status >= 400 && status < 500 && (err.expose === true || err instanceof URIError)) {
    return new AppError(status === 404 ? 'NOT_FOUND' : 'BAD_REQUEST', err.message, { cause: err });
  }
  return undefined;
}

/** Answers every unmatched route with 404 `NOT_FOUND` naming the path. */
export function createNotFoundHandler(): RequestHandler {
  return (req, _res, next) => {
    next(new AppError('NOT_FOUND', `no route for ${req.method} ${req.path}`));
  };
}

/**
 * The only place that writes an error response: `AppError`s as they are, known library errors as
 * 4xx, anything else as 500 `INTERNAL` with the cause logged and never sent. Other 5xx are logged
 * as one line with a summary of their cause ({@link summarizeError}).
 */
export function createErrorHandler(logger: Logger): ErrorRequestHandler {
  return (err: unknown, _req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    const known = isAppError(err) ? err : err instanceof Error ? fromLibraryError(err as HttpLibraryError) : undefined;
    const appError = known ?? new AppError('INTERNAL', 'internal error; the request id identifies it in the logs', { cause: err });
    const requestId = requestIdOf(res);
    if (appError.code === 'INTERNAL') {
      // A defect: its stack is what finds it.
      logger.error({ err: appError.cause ?? appError, code: appError.code, request_id: requestId }, appError.message);
    } else if (appError.status >= 500) {
      // An upstream or a dependency failed: one line with the cause, not its client's request objects.
      logger.error({ code: appError.code, request_id: requestId, cause: summarizeError(appError.cause ?? appError) }, appError.message);
    }
    for (const [name, value] of Object.entries(appError.headers)) res.setHeader(name, value);
    res.status(appError.status).json(errorEnvelope(appError.code, appError.message, requestId, appError.details));
  };
}
