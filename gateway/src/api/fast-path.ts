import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Express, NextFunction, Request, Response } from 'express';
import { AppError, REQUEST_ID_HEADER } from '@tollgate/envelope';
import type { Logger } from '@tollgate/envelope';
import type { ApiPipeline } from './api-routes';
import { logOnClose } from '../http/access-log';

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
  pipelines: Map<string, ApiPipeline>;
  logger: Logger;
}

type Handler = (req: Request, res: Response, next: NextFunction) => unknown;
interface Stages {
  prefixLength: number;
  handlers: readonly Handler[];
}

/**
 * Runs a proxied call's handlers on the raw request and response: they only use Node's API plus
 * `res.locals`, which Express keeps when it takes over. Anything that is not `/{api}/v1/...`, and
 * any error, is handed to the Express app (its error handler skips its own request-id and access-log
 * middleware, so the id and the single log line stay the fast path's): answers and error envelopes
 * stay identical.
 */
export function createFastPath(deps: FastPathDeps): RequestListener {
  const { app, logger } = deps;
  const stages = new Map<string, Stages>();
  for (const [api, handlers] of deps.pipelines) stages.set(api, { prefixLength: api.length + 1, handlers: handlers as readonly Handler[] });
  return (req, res) => {
    const api = API_PATH.exec(req.url ?? '')?.[1];
    const stage = api === undefined ? undefined : stages.get(api);
    if (!stage) {
      app(req, res);
      return;
    }
    const incoming = req.headers[REQUEST_ID_HEADER];
    const requestId = typeof incoming === 'string' && SAFE_ID.test(incoming) ? incoming : randomUUID();
    (res as ServerResponse & { locals: Record<string, unknown> }).locals = { requestId };
    res.setHeader(REQUEST_ID_HEADER, requestId);
    const pending = req as Pending;
    pending.originalUrl = req.url;
    logOnClose(logger, pending, res, requestId);
    req.url = (req.url ?? '').slice(stage.prefixLength);
    const xreq = req as unknown as Request;
    const xres = res as unknown as Response;
    const fail = (err: unknown): void => {
      pending[PENDING] = err ?? new AppError('NOT_FOUND', `no route for ${req.method} ${req.url}`);
      app(req, res);
    };
    const { handlers } = stage;
    // Express's own contract: a handler either answers, calls next() (with an error to fail),
    // throws, or returns a promise that rejects; next() after the last handler is the error path.
    // One `next` for the whole call, moving along the handlers, rather than one per stage.
    let i = 0;
    const next: NextFunction = (err?: unknown) => {
      const handler = handlers[i++];
      if (err || !handler) {
        fail(err);
        return;
      }
      try {
        const result = handler(xreq, xres, next);
        if (result instanceof Promise) result.catch(fail);
      } catch (thrown) {
        fail(thrown);
      }
    };
    next();
  };
}
