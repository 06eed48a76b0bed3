import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { Express, NextFunction, Request, Response } from 'express';
import { AppError, createRequestIdMiddleware, createRequestLogger } from '@tollgate/envelope';
import type { createLogger } from '@tollgate/envelope';
import type { ApiPipeline } from '../routes/api-routes';

const PENDING = Symbol('tollgate.pendingError');
type Pending = IncomingMessage & { [PENDING]?: unknown; originalUrl?: string };

/** The error the fast path handed to the Express app to render, if any. */
export function pendingErrorOf(req: IncomingMessage): unknown {
  return (req as Pending)[PENDING];
}

const API_PATH = /^\/([a-z][a-z0-9_-]{0,31})\/v1(?:[/?]|$)/;

/** What the fast path needs. */
export interface FastPathDeps {
  app: Express;
  pipelines: Map<string, ApiPipeline>;
  logger: ReturnType<typeof createLogger>;
}

/**
 * Runs a proxied call's handlers on the raw request and response: they only use Node's API plus
 * `res.locals`, which Express keeps when it takes over. Anything that is not `/{api}/v1/...`, and
 * any error, is handed to the Express app, so answers and error envelopes stay identical.
 */
export function createFastPath(deps: FastPathDeps): RequestListener {
  const { app, pipelines } = deps;
  const requestId = createRequestIdMiddleware() as unknown as (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
  const accessLog = createRequestLogger(deps.logger) as unknown as (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
  return (req, res) => {
    const api = API_PATH.exec(req.url ?? '')?.[1];
    const pipeline = api === undefined ? undefined : pipelines.get(api);
    if (!api || !pipeline) {
      app(req, res);
      return;
    }
    const [count, gate, proxy] = pipeline.map((h) => h as unknown as (req: Request, res: Response, next: NextFunction) => unknown) as [
      (req: Request, res: Response, next: NextFunction) => void,
      (req: Request, res: Response, next: NextFunction) => Promise<void>,
      (req: Request, res: Response, next: NextFunction) => void,
    ];
    const fail = (err: unknown): void => {
      (req as Pending)[PENDING] = err ?? new AppError('NOT_FOUND', `no route for ${req.method} ${req.url}`);
      app(req, res);
    };
    (res as ServerResponse & { locals: Record<string, unknown> }).locals = Object.create(null) as Record<string, unknown>;
    requestId(req, res, () =>
      accessLog(req, res, () => {
        const pending = req as Pending;
        pending.originalUrl = req.url;
        req.url = (req.url ?? '').slice(api.length + 1);
        const xreq = req as unknown as Request;
        const xres = res as unknown as Response;
        count(xreq, xres, () => undefined);
        gate(xreq, xres, (err?: unknown) => (err ? fail(err) : proxy(xreq, xres, (e?: unknown) => fail(e)))).catch(fail);
      }),
    );
  };
}
