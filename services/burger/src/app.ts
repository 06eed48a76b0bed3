import express from 'express';
import type { Express } from 'express';
import type { Logger as PinoLogger } from 'pino';
import type { RouteDoc } from '@tollgate/envelope';
import {
  createErrorHandler,
  createHealthRoutes,
  createNotFoundHandler,
  createProxySecretMiddleware,
  createRequestIdMiddleware,
  createRequestLogger,
  readOnlyRoute,
} from '@tollgate/envelope';
import type { DatasetStore } from './data/dataset-store';
import { COUNTRY_ROUTE, createCountryHandler } from './routes/country-route';
import { EXTREMES_ROUTE, createExtremesHandler } from './routes/extremes-route';
import { HEALTHZ_ROUTE, READYZ_ROUTE } from './routes/health-docs';
import { INDEX_ROUTE, createIndexHandler } from './routes/index-route';
import { META_ROUTE, createMetaHandler } from './routes/meta-route';
import { OPENAPI_PATH, createOpenApiHandler } from './routes/openapi-route';
import { createReadiness } from './routes/readiness';
import { SOURCE } from './domain/source';

/** Every documented route of the service, in the order the docs list them. */
export const ROUTES: readonly RouteDoc[] = [INDEX_ROUTE, COUNTRY_ROUTE, EXTREMES_ROUTE, META_ROUTE, HEALTHZ_ROUTE, READYZ_ROUTE];

/** What the app needs; main.ts builds them, tests pass local ones. */
export interface AppDeps {
  store: DatasetStore;
  logger: PinoLogger;
  /** When set, /v1 calls must carry it in `x-tollgate-proxy-secret`. */
  proxySecret?: string;
  /** `source` of every answer (domain/source.ts, describeSource); the dataset's name when absent. */
  source?: string;
}

/** The Express app: health routes open, /v1 behind the proxy secret, errors through the envelope. */
export function createApp(deps: AppDeps): Express {
  const app = express();
  // Every envelope carries a fresh timestamp and request id, so a body ETag could never match.
  app.set('etag', false);
  app.disable('x-powered-by');
  app.use(createRequestIdMiddleware());
  app.use(createRequestLogger(deps.logger));
  app.use(createHealthRoutes(createReadiness(deps.store)));
  app.use(createProxySecretMiddleware(deps.proxySecret));

  const endpoints = {
    ...Object.fromEntries(ROUTES.map((r) => [`${r.method.toUpperCase()} ${r.path}`, r.summary])),
    [`GET ${OPENAPI_PATH}`]: 'This API as an OpenAPI 3.1 document',
  };
  const source = deps.source ?? SOURCE;
  readOnlyRoute(app, INDEX_ROUTE.path, createIndexHandler(deps.store, source));
  readOnlyRoute(app, COUNTRY_ROUTE.path, createCountryHandler(deps.store, source));
  readOnlyRoute(app, EXTREMES_ROUTE.path, createExtremesHandler(deps.store, source));
  readOnlyRoute(app, META_ROUTE.path, createMetaHandler(deps.store, endpoints, source));
  readOnlyRoute(app, OPENAPI_PATH, createOpenApiHandler(ROUTES));

  app.use(createNotFoundHandler());
  app.use(createErrorHandler(deps.logger));
  return app;
}
