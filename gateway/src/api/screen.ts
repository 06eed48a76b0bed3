import type { RequestHandler } from 'express';
import { AppError } from '@tollgate/envelope';
import type { ServiceDocuments } from '../data/service-documents';
import { checkPath } from './check-path';
import type { CorsPolicy } from './cors-policy';

/** What the screen of one API needs. */
export interface ScreenDeps {
  api: string;
  cors: CorsPolicy;
  documents: ServiceDocuments;
}

const ALLOW = 'GET, HEAD';

/**
 * What a call must be before it reaches the key check, so nothing it refuses is charged: a path
 * that means one thing to every reader (400), under `/{api}/v1/` (404), GET or HEAD (405 with
 * `Allow`; a CORS preflight is answered here, 204), without a body (400: the data routes take
 * none, and a trickled body would hold a service connection), and one of the service's documented
 * routes (404, when its document is known). `req.url` is the path after `/{api}`.
 */
export function createScreen(deps: ScreenDeps): RequestHandler {
  const { api, cors } = deps;
  return (req, res, next) => {
    const url = req.url;
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const problem = checkPath(path);
    if (problem) {
      res.locals.decision = 'bad_path';
      throw new AppError('BAD_REQUEST', `${problem}; send the route as documented at /docs, e.g. /${api}/v1/...`);
    }
    if (!/^\/v1(\/|$)/.test(path)) {
      res.locals.decision = 'no_route';
      throw new AppError('NOT_FOUND', `no route for ${req.method} /${api}${path}; ${api} is served under /${api}/v1/`);
    }
    const origin = req.headers.origin;
    const allowed = cors.allow(origin);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      if (req.method === 'OPTIONS' && origin !== undefined && req.headers['access-control-request-method'] !== undefined) {
        res.locals.decision = 'preflight';
        res.writeHead(204, allowed ? cors.preflight(allowed) : { Vary: 'Origin' });
        res.end();
        return;
      }
      res.locals.decision = 'method_not_allowed';
      throw new AppError('METHOD_NOT_ALLOWED', `${req.method} is not allowed on /${api}${path}; the data routes answer ${ALLOW}`, { headers: { Allow: ALLOW } });
    }
    if ((req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0') || req.headers['transfer-encoding'] !== undefined) {
      res.locals.decision = 'body_refused';
      // The body is not read: the connection cannot carry another request after this answer.
      throw new AppError('BAD_REQUEST', `the data routes take no request body; send parameters in the query string`, { headers: { Connection: 'close' } });
    }
    if (deps.documents.hasRoute(api, path) === false) {
      res.locals.decision = 'no_route';
      throw new AppError('NOT_FOUND', `no route for ${req.method} /${api}${path}; see /docs for the ${api} routes`);
    }
    if (allowed) for (const [name, value] of Object.entries(cors.response(allowed))) res.setHeader(name, value);
    // The answer depends on Origin whenever one was sent: shared caches must not mix them.
    else if (origin !== undefined) res.setHeader('Vary', 'Origin');
    next();
  };
}
