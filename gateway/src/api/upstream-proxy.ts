import http from 'node:http';
import https from 'node:https';
import type { ClientRequest, IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, RequestHandler, Response } from 'express';
import { createProxyMiddleware, debugProxyErrorsPlugin, proxyEventsPlugin } from 'http-proxy-middleware';
import { AppError } from '@tollgate/envelope';
import type { Logger } from '@tollgate/envelope';
import type { ApiPlans } from '../domain/plans';
import { rateLimitHeaders } from '../domain/rate-limit-headers';
import type { Admission, QuotaStore, RefundTicket } from '../data/quota-store';
import { stripHopByHop } from './hop-by-hop';

/** What the proxy to one service needs. */
export interface UpstreamProxyDeps {
  api: string;
  target: string;
  /** Idle time (ms) without a byte from the service, or waiting for a free connection, before 504. */
  timeoutMs: number;
  maxSockets: number;
  apiPlans: ApiPlans;
  quotaStore: QuotaStore;
  logger: Logger;
}

/** What the gate leaves in `res.locals` for the proxy. */
interface ProxyLocals {
  requestId?: string;
  decision?: string;
  ticket?: RefundTicket;
  admission?: Admission;
  admittedAt?: number;
  proxyNext?: NextFunction;
  proxyReq?: ClientRequest;
  retried?: boolean;
}

const TIMEOUT_CODE = 'TOLLGATE_UPSTREAM_TIMEOUT';
const QUEUE_CODE = 'TOLLGATE_UPSTREAM_QUEUE_TIMEOUT';
// A kept-alive socket the service closed fails like this before any byte of the answer.
const STALE_SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);
const QUEUED_AT = Symbol('tollgate.queuedAt');
const RESPONSE = Symbol('tollgate.response');

type Queued = ClientRequest & { [QUEUED_AT]?: number };

/**
 * A keep-alive agent: without one, every proxied call pays a TCP handshake (and node-http-proxy
 * closes). Each request it queues for want of a free socket is stamped, so {@link sweepQueue} can
 * end those that waited too long without a timer per call.
 */
export function createUpstreamAgent(target: string, maxSockets: number): http.Agent {
  const options = { keepAlive: true, maxSockets, maxFreeSockets: maxSockets, scheduling: 'lifo' as const };
  const agent = target.startsWith('https:') ? new https.Agent(options) : new http.Agent(options);
  const addRequest = (agent as unknown as { addRequest: (req: Queued, options: unknown) => void }).addRequest;
  (agent as unknown as { addRequest: (req: Queued, options: unknown) => void }).addRequest = function stamp(req, opts) {
    req[QUEUED_AT] = performance.now();
    addRequest.call(this, req, opts);
  };
  return agent;
}

/**
 * Ends, with `err(waitedMs)`, every request the agent has kept waiting for a socket longer than
 * `maxWaitMs`. A queued request that is only destroyed stays queued and says nothing until a
 * socket frees up, so it is taken out of the queue and its error is emitted here.
 */
export function sweepQueue(agent: http.Agent, maxWaitMs: number, err: (waitedMs: number) => Error): void {
  const now = performance.now();
  const queues = agent.requests as unknown as Record<string, Queued[]>;
  for (const name of Object.keys(queues)) {
    const queue = queues[name] as Queued[];
    for (let i = queue.length - 1; i >= 0; i--) {
      const req = queue[i] as Queued;
      const waited = now - (req[QUEUED_AT] ?? now);
      if (waited <= maxWaitMs) continue;
      queue.splice(i, 1);
      if (req.destroyed) continue;
      const error = err(waited);
      req.destroy(error);
      process.nextTick(() => {
        req.emit('error', error);
        req.emit('close');
      });
    }
    // The agent takes a queue that exists to be non-empty (it shifts one when a socket frees).
    if (queue.length === 0) delete queues[name];
  }
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
 * Streams the call to the service (no body buffering) with http-proxy-middleware, and keeps the
 * charging rule exact: a call is refunded when the service could not be reached (502), stayed
 * silent or no connection came free in time (504), answered with its own 5xx, or when the client
 * left before the answer began. A GET or HEAD whose kept-alive socket turns out closed by the
 * service is sent once more on a fresh connection (as Envoy and undici do). Hop-by-hop headers of
 * the answer stay on the service's hop, and a service that drops the connection mid-answer cuts
 * the client's at once.
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
      // Emitted once the request has a socket: from here the idle timeout runs.
      proxyReq: (proxyReq: ClientRequest, _req, res) => {
        (res as unknown as Response).locals.proxyReq = proxyReq;
        proxyReq.setTimeout(deps.timeoutMs, () => {
          proxyReq.destroy(Object.assign(new Error(`${deps.api} service sent nothing for ${deps.timeoutMs} ms`), { code: TIMEOUT_CODE }));
        });
      },
      proxyRes: (proxyRes: IncomingMessage, _req, target) => {
        const res = target as unknown as Response;
        stripHopByHop(proxyRes.headers);
        // http-proxy would otherwise copy the client's (now removed) Connection or say keep-alive
        // to a client that asked to close, and that client would wait for an end that never comes.
        proxyRes.headers.connection = res.shouldKeepAlive ? 'keep-alive' : 'close';
        if ((proxyRes.statusCode ?? 0) >= 500) void refund(res);
        (proxyRes as IncomingMessage & { [RESPONSE]?: Response })[RESPONSE] = res;
        proxyRes.on('close', cutIfIncomplete);
      },
      error: (err: NodeJS.ErrnoException, req, target) => {
        const res = target as unknown as Response;
        const locals = res.locals as ProxyLocals;
        const retry = !res.headersSent && !locals.retried && (req.method === 'GET' || req.method === 'HEAD') && locals.proxyReq?.reusedSocket === true && STALE_SOCKET_CODES.has(err.code ?? '');
        if (retry) {
          locals.retried = true;
          locals.proxyReq = undefined;
          void proxy(req as never, res as never, locals.proxyNext as NextFunction);
          return;
        }
        void fail(err, res);
      },
    },
  });
  const queueError = (waited: number): Error =>
    Object.assign(new Error(`no connection to the ${deps.api} service came free within ${Math.round(waited)} ms`), { code: QUEUE_CODE });
  setInterval(() => sweepQueue(agent, deps.timeoutMs, queueError), Math.min(1_000, Math.max(50, deps.timeoutMs / 4))).unref();

  // The limit headers as they read once this call is given back.
  function showRefunded(res: Response): void {
    const { admission, admittedAt } = res.locals as ProxyLocals;
    if (!admission || admittedAt === undefined || res.headersSent) return;
    const headers = rateLimitHeaders({ ...admission, used: Math.max(0, admission.used - 1), secondCount: Math.max(0, admission.secondCount - 1) }, deps.apiPlans, admittedAt);
    if (headers) for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  }

  /** Gives the call back, once, whichever way it was not served. */
  async function refund(res: Response): Promise<void> {
    const locals = res.locals as ProxyLocals;
    const ticket = locals.ticket;
    if (!ticket) return;
    locals.ticket = undefined;
    locals.decision = 'refunded';
    showRefunded(res);
    try {
      await deps.quotaStore.refund(ticket);
    } catch (refundError) {
      deps.logger.warn({ err: (refundError as Error).message, api: deps.api, request_id: locals.requestId }, 'refund not applied now: it is sent again when the store is back');
    }
  }

  function cutIfIncomplete(this: IncomingMessage & { [RESPONSE]?: Response }): void {
    const res = this[RESPONSE];
    // A client that left aborted this answer itself: that is not the service failing.
    if (!this.complete && res && !res.writableFinished && !res.destroyed) {
      deps.logger.warn({ api: deps.api, request_id: res.locals.requestId }, 'service connection failed mid-answer; the client connection is cut');
      res.destroy();
    }
  }

  // The client left before any of the answer was sent: the call was not served.
  function clientClosed(this: Response): void {
    if (!this.headersSent) void refund(this);
  }

  async function fail(err: NodeJS.ErrnoException, res: Response): Promise<void> {
    // Part of the answer is already with the client: it was served, so no refund, just cut it.
    if (res.headersSent) {
      deps.logger.warn({ err: err.message, api: deps.api, request_id: res.locals.requestId }, 'service connection failed mid-answer');
      res.destroy();
      return;
    }
    await refund(res);
    const timedOut = err.code === TIMEOUT_CODE || err.code === QUEUE_CODE || err.code === 'ETIMEDOUT';
    const next = res.locals.proxyNext as NextFunction;
    next(
      timedOut
        ? new AppError('UPSTREAM_TIMEOUT', `the ${deps.api} service did not answer in time; the call was not charged`, { cause: err, details: { reason: err.code === QUEUE_CODE ? 'no free connection' : 'no answer' } })
        : new AppError('UPSTREAM_UNAVAILABLE', `the ${deps.api} service is unreachable; the call was not charged`, { cause: err, details: { reason: err.code ?? err.message } }),
    );
  }

  return (req, res, next) => {
    // The client left while the call was being admitted: it is not sent, and given back.
    if (req.destroyed || res.destroyed || req.socket.destroyed) {
      void refund(res);
      return;
    }
    res.locals.proxyNext = next;
    // `on`, not `once`: `once` wraps the listener in a new closure per call; 'close' comes once anyway.
    res.on('close', clientClosed);
    return proxy(req, res, next);
  };
}
