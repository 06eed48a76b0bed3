import type { IncomingMessage, ServerResponse } from 'node:http';
import { Router } from 'express';
import { requestIdOf } from '@tollgate/envelope';
import type { PlanTable } from '../domain/plans';
import type { QuotaObserver, UsageSink } from '../domain/usage-event';
import type { ServiceDocuments } from '../data/service-documents';
import type { GatewayMetrics } from '../http/metrics';
import { createCallCounter } from '../http/metrics';
import { ApiCall } from './api-call';
import type { ApiContext, ApiShared, RenderError } from './api-call';
import type { CorsPolicy } from './cors-policy';
import type { FailOpenCache } from './fail-open-cache';
import { serviceHeaders } from './forwarded-headers';
import { createGate } from './gate';
import { createScreen } from './screen';
import { createUpstream } from './upstream-forward';

/** What the proxied APIs need. */
export interface ApiRoutesDeps extends ApiShared {
  plans: PlanTable;
  upstreams: Record<string, string>;
  keyHeader: string;
  proxySecret?: string;
  quotaFailMode: 'closed' | 'open';
  /** Keys verified recently, for `quotaFailMode: 'open'`. */
  failOpenCache: FailOpenCache;
  upstreamTimeoutMs: number;
  upstreamMaxSockets: number;
  /** APIs whose services receive the client's `Authorization`. */
  forwardAuthorization: readonly string[];
  /** APIs whose services' `Set-Cookie` reaches the client. */
  forwardSetCookie: readonly string[];
  documents: ServiceDocuments;
  cors: CorsPolicy;
  trust: (address: string, hop: number) => boolean;
  metrics: GatewayMetrics;
  /** The usage stream's buffer, when the stream is on. */
  usage?: UsageSink;
  /** Each API's quota observer, when quota alerts are on. */
  observerFor?: (api: string) => QuotaObserver | undefined;
}

/**
 * Serves one call to one API: `req.url` is its path after `/{api}`; `renderError` answers an error
 * in the envelope; `logged` says whether the call writes its own access line.
 */
export type ApiHandler = (req: IncomingMessage, res: ServerResponse, requestId: string, renderError: RenderError, logged: boolean) => void;

/**
 * The handler of every API in the plan table that has a service URL: screen the call, check its
 * key and admit it in one store step, forward it (see api-call.ts for how it is settled).
 */
export function createApiHandlers(deps: ApiRoutesDeps): Map<string, ApiHandler> {
  const handlers = new Map<string, ApiHandler>();
  for (const [api, apiPlans] of Object.entries(deps.plans)) {
    const target = deps.upstreams[api];
    if (!target) continue;
    const { quotaStore, clock, logger } = deps;
    const context: ApiContext = { api, apiPlans, quotaStore, recorder: deps.recorder, countCall: createCallCounter(deps.metrics, api), clock, logger };
    if (deps.transportSecurity !== undefined) context.transportSecurity = deps.transportSecurity;
    if (deps.usage) context.usage = deps.usage;
    const observeQuota = deps.observerFor?.(api);
    if (observeQuota) context.observeQuota = observeQuota;
    const screen = createScreen({ api, cors: deps.cors, documents: deps.documents });
    const upstream = createUpstream({ api, target, timeoutMs: deps.upstreamTimeoutMs, maxSockets: deps.upstreamMaxSockets, forwardSetCookie: deps.forwardSetCookie.includes(api), logger });
    const rules = { keyHeader: deps.keyHeader, proxySecret: deps.proxySecret, forwardAuthorization: deps.forwardAuthorization.includes(api), trust: deps.trust };
    const gate = createGate({ api, apiPlans, keyHeader: deps.keyHeader, quotaStore, clock, failMode: deps.quotaFailMode, failOpenCache: deps.failOpenCache }, (call, accountId, plan) => {
      const { req } = call;
      upstream.forward(call, req.url ?? '', serviceHeaders(rules, req.headers, req.socket.remoteAddress, accountId, plan, call.requestId, call.decision === 'playground'));
    });
    handlers.set(api, (req, res, requestId, renderError, logged) => {
      const call = new ApiCall(context, req, res, requestId, renderError, logged);
      try {
        const url = req.url ?? '';
        const query = url.indexOf('?');
        if (screen(call, query < 0 ? url : url.slice(0, query))) gate(call);
      } catch (err) {
        call.fail(err);
      }
    });
  }
  return handlers;
}

/** `/{api}/...` through Express (the app without the fast path), for every API. */
export function createApiRoutes(handlers: Map<string, ApiHandler>): Router {
  const router = Router();
  for (const [api, handler] of handlers) router.use(`/${api}`, (req, res, next) => handler(req, res, requestIdOf(res), (_req, _res, err) => next(err), false));
  return router;
}
