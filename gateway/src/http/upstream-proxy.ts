import http from 'node:http';
import https from 'node:https';
import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, RequestHandler, Response } from 'express';
import { createProxyMiddleware, debugProxyErrorsPlugin, proxyEventsPlugin } from 'http-proxy-middleware';
import { AppError } from '@tollgate/envelope';
import type { Logger } from '@tollgate/envelope';
import type { QuotaStore, RefundTicket } from '../data/quota-store';

/** What the proxy to one service needs. */
export interface UpstreamProxyDeps {
  api: string;
  target: string;
  /** Idle time (ms) without a byte from the service before the call is abandoned with 504. */
  timeoutMs: number;
  maxSockets: number;
  quotaStore: QuotaStore;
  logger: Logger;
}

const TIMEOUT_CODE = 'TOLLGATE_UPSTREAM_TIMEOUT';

/** A keep-alive agent: without one, every proxied call pays a TCP handshake (and node-http-proxy closes). */
export function createUpstreamAgent(target: string, maxSockets: number): http.Agent {
  const options = { keepAlive: true, maxSockets, maxFreeSockets: maxSockets, scheduling: 'lifo' as const };
  return target.startsWith('https:') ? new https.Agent(options) : new http.Agent(options);
}

/**
 * The service URL in the parsed form http-proxy works with. Given a string, http-proxy runs the
 * legacy `url.parse` on it for every call; parsed once here, each call copies a reference.
 */
export function parseTarget(target: string): { protocol: string; host: string; hostname: string; port: string; path: string; pathname: string; href: string } {
  const url = new URL(target);
  // WHATWG keeps an IPv6 host in brackets; a socket connect wants the bare address, as url.parse gave it.
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return { protocol: url.protocol, host: url.host, hostname, port: url.port, path: url.pathname + url.search, pathname: url.pathname, href: url.href };
}

/**
 * Streams the call to the service (no body buffering) with http-proxy-middleware. A service that
 * refuses or drops the connection answers 502 and one that stays silent 504, both in the envelope
 * through the error handler, and the call is refunded: the client got nothing from the service.
 */
export function createUpstreamProxy(deps: UpstreamProxyDeps): RequestHandler {
  const agent = createUpstreamAgent(deps.target, deps.maxSockets);
  const proxy = createProxyMiddleware<IncomingMessage, ServerResponse>({
    target: parseTarget(deps.target),
    changeOrigin: true,
    // X-Forwarded-For and -Host are set by the gate in the headers it builds; http-proxy's `xfwd`
    // also adds -Port and -Proto and, per call, cost 7% of the gateway's instructions.
    agent,
    // The default logger plugin builds a URL and a log string for every response even with no
    // logger set (a no-op): a measurable share of a call. The gateway logs each call itself, so keep
    // only the plugins that matter: socket-error and abort handling, and the `on` handlers below.
    ejectPlugins: true,
    plugins: [debugProxyErrorsPlugin, proxyEventsPlugin],
    on: {
      proxyReq: (proxyReq: ClientRequest) => {
        proxyReq.setTimeout(deps.timeoutMs, () => {
          proxyReq.destroy(Object.assign(new Error(`${deps.api} service sent nothing for ${deps.timeoutMs} ms`), { code: TIMEOUT_CODE }));
        });
      },
      error: (err: NodeJS.ErrnoException, _req, target) => {
        const res = target as unknown as Response;
        void fail(err, res);
      },
    },
  });

  async function fail(err: NodeJS.ErrnoException, res: Response): Promise<void> {
    // Part of the answer is already with the client: it was served, so no refund, just cut it.
    if (res.headersSent) {
      deps.logger.warn({ err: err.message, api: deps.api, request_id: res.locals.requestId }, 'service connection failed mid-answer');
      res.destroy();
      return;
    }
    const ticket = res.locals.ticket as RefundTicket | undefined;
    if (ticket) {
      try {
        await deps.quotaStore.refund(ticket);
        res.locals.decision = 'refunded';
      } catch (refundError) {
        deps.logger.error({ err: (refundError as Error).message, api: deps.api, request_id: res.locals.requestId }, 'refund failed: the call stays charged');
      }
    }
    const timedOut = err.code === TIMEOUT_CODE || err.code === 'ETIMEDOUT';
    const next = res.locals.proxyNext as NextFunction;
    next(
      timedOut
        ? new AppError('UPSTREAM_TIMEOUT', `the ${deps.api} service did not answer in time; the call was not charged`, { cause: err })
        : new AppError('UPSTREAM_UNAVAILABLE', `the ${deps.api} service is unreachable; the call was not charged`, { cause: err, details: { reason: err.code ?? err.message } }),
    );
  }

  return (req, res, next) => {
    res.locals.proxyNext = next;
    return proxy(req, res, next);
  };
}
