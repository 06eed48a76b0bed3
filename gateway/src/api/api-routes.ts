import type { IncomingMessage, ServerResponse } from 'node:http';
import { Router } from 'express';
import { AppError, requestIdOf } from '@tollgate/envelope/core';
import type { CatalogueApi } from '../domain/catalogue';
import type { QuotaObserver, UsageSink } from '../domain/usage-event';
import type { LiveCatalogue } from '../data/live-catalogue';
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
import type { Upstream } from './upstream-forward';

/** What the proxied APIs need. */
export interface ApiRoutesDeps extends ApiShared {
  /** The APIs served, their plans and proxy settings: a handler is built per API and rebuilt when a reload changes it. */
  catalogue: LiveCatalogue;
  keyHeader: string;
  proxySecret?: string;
  quotaFailMode: 'closed' | 'open';
  /** Keys verified recently, for `quotaFailMode: 'open'`. */
  failOpenCache: FailOpenCache;
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
 * The handler of every API in the catalogue: screen the call, check its key and admit it in one
 * store step, forward it (see api-call.ts for how it is settled). The map is kept by a reload:
 * an added API gets a handler, a changed one a new handler (and connection pool), a removed one
 * none; the pools they leave are closed once their calls are answered.
 */
export function createApiHandlers(deps: ApiRoutesDeps): Map<string, ApiHandler> {
  const handlers = new Map<string, ApiHandler>();
  const built = new Map<string, { api: CatalogueApi; upstream: Upstream }>();
  const sync = (apis: Record<string, CatalogueApi>): void => {
    for (const [name, { api, upstream }] of built) {
      if (Object.hasOwn(apis, name) && apis[name] === api) continue;
      handlers.delete(name);
      built.delete(name);
      upstream.close().catch((err: unknown) => deps.logger.warn({ err: (err as Error).message, api: name }, 'the connections of an API the catalogue changed did not close cleanly'));
    }
    for (const [name, api] of Object.entries(apis)) {
      if (built.has(name)) continue;
      const upstream = createUpstream({ api: name, target: api.upstream, timeoutMs: api.proxy.timeout_ms, maxSockets: api.proxy.max_connections, forwardSetCookie: api.proxy.forward_set_cookie, logger: deps.logger });
      built.set(name, { api, upstream });
      handlers.set(name, handlerOf(deps, api, upstream));
    }
  };
  sync(deps.catalogue.current().apis);
  deps.catalogue.onChange((next) => sync(next.apis));
  return handlers;
}

function handlerOf(deps: ApiRoutesDeps, apiPlans: CatalogueApi, upstream: Upstream): ApiHandler {
  const api = apiPlans.name;
  const { quotaStore, clock, logger } = deps;
  const context: ApiContext = { api, apiPlans, quotaStore, recorder: deps.recorder, countCall: createCallCounter(deps.metrics, api), clock, logger };
  if (deps.transportSecurity !== undefined) context.transportSecurity = deps.transportSecurity;
  if (deps.usage) context.usage = deps.usage;
  const observeQuota = deps.observerFor?.(api);
  if (observeQuota) context.observeQuota = observeQuota;
  const screen = createScreen({ api, cors: deps.cors, documents: deps.documents });
  const rules = { keyHeader: deps.keyHeader, proxySecret: deps.proxySecret, forwardAuthorization: apiPlans.proxy.forward_headers.includes('authorization'), trust: deps.trust };
  const gate = createGate({ api, apiPlans, keyHeader: deps.keyHeader, quotaStore, clock, failMode: deps.quotaFailMode, failOpenCache: deps.failOpenCache }, (call, accountId, plan) => {
    const { req } = call;
    upstream.forward(call, req.url ?? '', serviceHeaders(rules, req.headers, req.socket.remoteAddress, accountId, plan, call.requestId, call.decision === 'playground'));
  });
  return (req, res, requestId, renderError, logged) => {
    const call = new ApiCall(context, req, res, requestId, renderError, logged);
    try {
      const url = req.url ?? '';
      const query = url.indexOf('?');
      if (screen(call, query < 0 ? url : url.slice(0, query))) gate(call);
    } catch (err) {
      call.fail(err);
    }
  };
}

/**
 * `/{api}/...` through Express (the app without the fast path), for every API the catalogue has
 * now; an API a reload withdrew is answered 410 saying so.
 */
export function createApiRoutes(handlers: Map<string, ApiHandler>, catalogue: Pick<LiveCatalogue, 'withdrawn'>): Router {
  const router = Router();
  router.use('/:api', (req, res, next) => {
    const api = String(req.params.api).toLowerCase();
    const handler = handlers.get(api);
    if (handler) {
      handler(req, res, requestIdOf(res), (_req, _res, err) => next(err), false);
      return;
    }
    const withdrawn = catalogue.withdrawn(api);
    if (!withdrawn) {
      next();
      return;
    }
    throw new AppError('GONE', `The ${withdrawn.title} API (/${api}) was withdrawn from this gateway’s catalogue on ${new Date(withdrawn.atMs).toISOString().slice(0, 10)} and no longer serves calls; a card-paid plan of it ends at its period’s end and is not charged again. See ${PORTAL_CATALOGUE_PAGE} for the APIs there are.`, { details: { api, withdrawn_at: new Date(withdrawn.atMs).toISOString() } });
  });
  return router;
}

/** Where the APIs there are are listed. */
const PORTAL_CATALOGUE_PAGE = '/portal/';
