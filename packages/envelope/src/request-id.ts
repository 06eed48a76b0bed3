import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';

export const REQUEST_ID_HEADER = 'x-request-id';

// An incoming id is echoed into headers and logs, so it must be short and header-safe.
const SAFE_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Reuses a well-formed incoming `x-request-id`, else makes a UUID; echoes it in the response. */
export function createRequestIdMiddleware(newId: () => string = randomUUID): RequestHandler {
  return (req, res, next) => {
    const incoming = req.headers[REQUEST_ID_HEADER];
    const id = typeof incoming === 'string' && SAFE_ID.test(incoming) ? incoming : newId();
    res.locals.requestId = id;
    res.setHeader(REQUEST_ID_HEADER, id);
    next();
  };
}
