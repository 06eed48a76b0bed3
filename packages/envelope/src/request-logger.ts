import pinoHttp from 'pino-http';
import type { Logger as PinoLogger } from 'pino';
import type { RequestHandler } from 'express';
import { summarizeError } from './error-summary';
import { redactUrl } from './redact-url';

/**
 * One JSON access-log line per request, carrying the request id set by the request-id middleware.
 * It names the method, the URL with its secrets redacted ({@link redactUrl}) and the status: no
 * header of the request or the answer (Authorization, Cookie, keys, CSRF tokens, Set-Cookie).
 */
export function createRequestLogger(logger: PinoLogger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId: (_req, res) => String(res.getHeader('x-request-id') ?? ''),
    customAttributeKeys: { reqId: 'request_id' },
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
    serializers: {
      req: (req: { method: string; url: string }) => ({ method: req.method, url: redactUrl(req.url) }),
      res: (res: { statusCode: number }) => ({ status: res.statusCode }),
      // pino-http makes an Error for every 5xx; its stack says nothing the error handler's line does not.
      err: (err: unknown) => summarizeError(err),
    },
  });
}
