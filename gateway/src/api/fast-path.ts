import type { IncomingMessage, RequestListener } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Express } from 'express';
import { REQUEST_ID_HEADER } from '@tollgate/envelope/core';
import type { ApiHandler } from './api-routes';

const PENDING = Symbol('tollgate.pendingError');
type Pending = IncomingMessage & { [PENDING]?: unknown; originalUrl?: string };

/** The error the fast path handed to the Express app to render, if any. */
export function pendingErrorOf(req: IncomingMessage): unknown {
  return (req as Pending)[PENDING];
}

const API_PATH = /^\/([a-z][a-z0-9_-]{0,31})(?=[/?]|$)/;
// The same rule as the envelope's request-id middleware: an echoed id must be short and header-safe.
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** What the fast path needs. */
export interface FastPathDeps {
  app: Express;
  handlers: Map<string, ApiHandler>;
}

/**
 * Serves `/{api}/...` calls on the raw request and response, before and without Express (its
 * per-request cost was most of a proxy's budget): the request id, the access line and every stage
 * of the call are the API handler's. Anything else, and every error, goes to the Express app (its
 * error handler skips its own request-id and access-log middleware, so the id and the single log
 * line stay the fast path's): answers and error envelopes stay identical.
 */
export function createFastPath(deps: FastPathDeps): RequestListener {
  const { app, handlers } = deps;
  const render = (req: Pending, res: Parameters<RequestListener>[1], err: unknown): void => {
    req[PENDING] = err;
    app(req, res);
  };
  // `handlers` is the live map a catalogue reload keeps (api-routes.ts): looked up on every call.
  return (req, res) => {
    const url = req.url ?? '';
    const api = API_PATH.exec(url)?.[1];
    const handler = api === undefined ? undefined : handlers.get(api);
    if (!handler) {
      app(req, res);
      return;
    }
    const incoming = req.headers[REQUEST_ID_HEADER];
    const requestId = typeof incoming === 'string' && SAFE_ID.test(incoming) ? incoming : randomUUID();
    // The envelope's error handler reads the id from res.locals, as Express's request-id middleware leaves it.
    (res as typeof res & { locals: Record<string, unknown> }).locals = { requestId };
    const pending = req as Pending;
    pending.originalUrl = url;
    req.url = url.slice((api as string).length + 1);
    handler(req, res, requestId, render, true);
  };
}
