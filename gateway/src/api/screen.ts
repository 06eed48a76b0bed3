import { AppError } from '@tollgate/envelope/core';
import type { ServiceDocuments } from '../data/service-documents';
import type { ApiCall } from './api-call';
import { checkPath } from './check-path';
import type { CorsPolicy } from './cors-policy';

/** What the screen of one API needs. */
export interface ScreenDeps {
  api: string;
  cors: CorsPolicy;
  documents: ServiceDocuments;
}

const ALLOW = 'GET, HEAD';
const V1 = /^\/v1(\/|$)/;

/** Screens one call; false when it was answered here (a preflight), and throws an AppError to refuse it. */
export type Screen = (call: ApiCall, path: string) => boolean;

/**
 * What a call must be before it reaches the key check, so nothing it refuses is charged: a path
 * that means one thing to every reader (400), under `/{api}/v1/` (404), GET or HEAD (405 with
 * `Allow`; a CORS preflight is answered here, 204), without a body (400: the data routes take
 * none, and a trickled body would hold a service connection), and one of the service's documented
 * routes (404, when its document is known). `path` is the call's path after `/{api}`, without its query.
 */
export function createScreen(deps: ScreenDeps): Screen {
  const { api, cors } = deps;
  return (call, path) => {
    const { req } = call;
    const problem = checkPath(path);
    if (problem) {
      call.decision = 'bad_path';
      throw new AppError('BAD_REQUEST', `${problem}; send the route as documented at /docs, e.g. /${api}/v1/...`);
    }
    if (!V1.test(path)) {
      call.decision = 'no_route';
      throw new AppError('NOT_FOUND', `no route for ${req.method} /${api}${path}; ${api} is served under /${api}/v1/`);
    }
    const { headers } = req;
    const origin = headers.origin;
    const allowed = origin === undefined ? undefined : cors.allow(origin);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      if (req.method === 'OPTIONS' && origin !== undefined && headers['access-control-request-method'] !== undefined) {
        call.decision = 'preflight';
        call.res.writeHead(204, { ...call.headers, ...(allowed ? cors.preflight(allowed) : { Vary: 'Origin' }) });
        call.res.end();
        return false;
      }
      call.decision = 'method_not_allowed';
      throw new AppError('METHOD_NOT_ALLOWED', `${req.method} is not allowed on /${api}${path}; the data routes answer ${ALLOW}`, { headers: { Allow: ALLOW } });
    }
    if ((headers['content-length'] !== undefined && headers['content-length'] !== '0') || headers['transfer-encoding'] !== undefined) {
      call.decision = 'body_refused';
      // The body is not read: the connection cannot carry another request after this answer.
      throw new AppError('BAD_REQUEST', `the data routes take no request body; send parameters in the query string`, { headers: { Connection: 'close' } });
    }
    const route = deps.documents.routeOf(api, path);
    if (route === null) {
      call.decision = 'no_route';
      throw new AppError('NOT_FOUND', `no route for ${req.method} /${api}${path}; see /docs for the ${api} routes`);
    }
    if (route !== undefined) call.route = route;
    // The answer depends on Origin whenever one was sent: shared caches must not mix them.
    if (allowed) for (const [name, value] of Object.entries(cors.response(allowed))) call.headers[name.toLowerCase()] = value;
    else if (origin !== undefined) call.headers.vary = 'Origin';
    return true;
  };
}
