import type { RequestListener } from 'node:http';
import express from 'express';
import type { ErrorRequestHandler, Express, Router } from 'express';
import { AppError, createErrorHandler, createHealthRoutes, createNotFoundHandler, createRequestIdMiddleware, createRequestLogger } from '@tollgate/envelope';
import type { createLogger } from '@tollgate/envelope';
import type { GatewayConfig } from './config';
import type { Stores } from './data/quota-store';
import { StoreError } from './data/quota-store';
import type { GatewayMetrics } from './metrics';
import { createAdminRoutes } from './routes/admin-routes';
import { createApiPipelines, createApiRoutes } from './routes/api-routes';
import type { ApiPipeline, ApiRoutesDeps } from './routes/api-routes';
import { createFastPath, pendingErrorOf } from './http/fast-path';
import { createDashboardRoutes } from './routes/dashboard-routes';
import { readUsage } from './routes/usage';

/** Everything the gateway app is built from. */
export interface AppDeps {
  config: GatewayConfig;
  stores: Stores;
  clock: () => number;
  logger: ReturnType<typeof createLogger>;
  metrics: GatewayMetrics;
  /** More routers (e.g. `/docs`), mounted after health/metrics and before the proxied APIs. */
  routers?: Router[];
}

// Store failures outside the proxy path (admin, dashboard) are 503s too, never 500s.
const storeErrors: ErrorRequestHandler = (err, _req, _res, next) => {
  next(err instanceof StoreError ? new AppError('STORE_UNAVAILABLE', 'the key store is unavailable; retry shortly', { cause: err, headers: { 'Retry-After': '1' } }) : err);
};

/** The gateway: health, metrics, admin API, self-service, then one gated proxy per API. */
export function createApp(deps: AppDeps): Express {
  return buildApp(deps, createApiPipelines(apiDeps(deps)));
}

/**
 * The gateway as a plain request listener: proxied `/{api}/v1/...` calls skip Express (its
 * per-request cost is most of a proxy's budget), running the same request id, access log, count,
 * gate and proxy handlers; everything else, and every error answer, goes through {@link createApp}'s app.
 */
export function createGatewayListener(deps: AppDeps): { app: Express; listener: RequestListener } {
  const pipelines = createApiPipelines(apiDeps(deps));
  const app = buildApp(deps, pipelines);
  return { app, listener: createFastPath({ app, pipelines, logger: deps.logger }) };
}

function apiDeps(deps: AppDeps): ApiRoutesDeps {
  const { config } = deps;
  return {
    plans: config.plans,
    upstreams: config.upstreams,
    keyHeader: config.keyHeader,
    proxySecret: config.proxySecret,
    quotaFailMode: config.quotaFailMode,
    upstreamTimeoutMs: config.upstreamTimeoutMs,
    upstreamMaxSockets: config.upstreamMaxSockets,
    quotaStore: deps.stores.quotaStore,
    clock: deps.clock,
    logger: deps.logger,
    metrics: deps.metrics,
  };
}

function buildApp(deps: AppDeps, pipelines: Map<string, ApiPipeline>): Express {
  const { config, stores, clock, logger, metrics } = deps;
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  // An error raised on the fast path is rendered here, by the one error handler.
  app.use((req, _res, next) => next(pendingErrorOf(req)));
  app.use(createRequestIdMiddleware(), createRequestLogger(logger));

  app.use(
    createHealthRoutes(async () => {
      try {
        await stores.quotaStore.ping();
        return { ready: true, details: { store: stores.kind } };
      } catch {
        const details = { store: stores.kind, store_reachable: false, quota_fail_mode: config.quotaFailMode };
        // Failing open means serving without the store, so the gateway stays in rotation.
        return config.quotaFailMode === 'open' ? { ready: true, details } : { ready: false, reason: 'the quota store is unreachable', details };
      }
    }),
  );
  app.get('/metrics', async (_req, res) => {
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  });
  app.use('/admin/v1', createAdminRoutes({ adminToken: config.adminToken, plans: config.plans, keyStore: stores.keyStore, quotaStore: stores.quotaStore, clock }));
  app.use(
    '/dashboard/v1',
    createDashboardRoutes({
      plans: config.plans,
      keyHeader: config.keyHeader,
      keyStore: stores.keyStore,
      quotaStore: stores.quotaStore,
      clock,
      signupsPerHour: config.signupsPerHour,
      readUsage: (record, nowMs) => readUsage(record, config.plans, stores.quotaStore, nowMs),
    }),
  );
  for (const router of deps.routers ?? []) app.use(router);
  app.use(createApiRoutes(pipelines));
  app.use(createNotFoundHandler(), storeErrors, createErrorHandler(logger));
  return app;
}
