import express from 'express';
import type { Express, RequestHandler } from 'express';
import {
  createErrorHandler,
  createHealthRoutes,
  createNotFoundHandler,
  createOpenApiDocument,
  createProxySecretMiddleware,
  createRequestIdMiddleware,
  readOnlyRoute,
} from '@tollgate/envelope';
import type { Logger } from '@tollgate/envelope';
import type { ChainList } from './data/chain-list';
import type { PriceIndexer } from './data/price-indexer';
import { ALL_ROUTES } from './routes/all-routes';
import { createChangeHandler } from './routes/change-route';
import { createChartHandler } from './routes/chart-route';
import { createHistoricalHandler } from './routes/historical-route';
import { createMetaHandler } from './routes/meta-route';
import { createPriceHandler } from './routes/price-route';

/** Everything the token app needs, built by `main.ts` or by a test. */
export interface AppDeps {
  indexer: PriceIndexer;
  chainList: ChainList;
  /** Milliseconds since the epoch. */
  clock: () => number;
  logger: Logger;
  proxySecret?: string;
  /** Access logging; left out in tests. */
  requestLogger?: RequestHandler;
}

/** Builds the token-price Express app; it starts nothing and reads no environment. */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.use(createRequestIdMiddleware());
  if (deps.requestLogger) app.use(deps.requestLogger);

  app.use(
    createHealthRoutes(async () => {
      try {
        const chains = await deps.chainList.get();
        return { ready: true, details: { chain_count: chains.size } };
      } catch (err) {
        return { ready: false, reason: `the price indexer's chain list could not be fetched: ${(err as Error).message}` };
      }
    }),
  );
  app.use(createProxySecretMiddleware(deps.proxySecret));

  const routeDeps = { indexer: deps.indexer, chainList: deps.chainList, clock: deps.clock };
  readOnlyRoute(app, '/v1/price', createPriceHandler(routeDeps));
  readOnlyRoute(app, '/v1/historical', createHistoricalHandler(routeDeps));
  readOnlyRoute(app, '/v1/chart', createChartHandler(routeDeps));
  readOnlyRoute(app, '/v1/change', createChangeHandler(routeDeps));
  readOnlyRoute(app, '/v1/meta', createMetaHandler(routeDeps));

  // The document is served bare, not in the envelope, so that OpenAPI tools can read it.
  const openApi = createOpenApiDocument(
    { title: 'Tollgate token-price API', version: '1.0.0', description: 'USD prices by contract address: current, historical, chart and change.' },
    ALL_ROUTES,
  );
  readOnlyRoute(app, '/v1/openapi.json', (_req, res) => {
    res.json(openApi);
  });

  app.use(createNotFoundHandler());
  app.use(createErrorHandler(deps.logger));
  return app;
}
