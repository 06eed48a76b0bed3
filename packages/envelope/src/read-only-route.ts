import type { RequestHandler, Router } from 'express';
import { AppError } from './app-error';

/** The methods every Tollgate data route answers; HEAD is GET without a body. */
export const READ_ONLY_METHODS = 'GET, HEAD';

/** Answers any method a read-only route does not take with 405 `METHOD_NOT_ALLOWED` and `Allow`. */
export function createMethodNotAllowedHandler(): RequestHandler {
  return (req, _res, next) => {
    next(
      new AppError('METHOD_NOT_ALLOWED', `${req.method} is not allowed on ${req.path}; use ${READ_ONLY_METHODS}`, {
        details: { method: req.method, allowed: ['GET', 'HEAD'] },
        headers: { Allow: READ_ONLY_METHODS },
      }),
    );
  };
}

const methodNotAllowed = createMethodNotAllowedHandler();

/**
 * Registers a GET route (Express answers HEAD with it) and 405 for every other method on the same
 * path, OPTIONS included: Express's own OPTIONS answer is a bare 200, and other methods would fall
 * through to 404 as if the path did not exist. Express matches the path, so case and a trailing
 * slash are treated exactly as for the GET.
 *
 * @example
 * readOnlyRoute(app, '/v1/index', createIndexHandler(store));
 */
export function readOnlyRoute(router: Pick<Router, 'route'>, path: string, ...handlers: RequestHandler[]): void {
  router.route(path).get(...handlers).all(methodNotAllowed);
}
