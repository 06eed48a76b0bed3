import {
  createErrorHandler,
  createHealthRoutes,
  createNotFoundHandler,
  createProxySecretMiddleware,
  createRequestIdMiddleware,
  createRequestLogger,
  type createLogger,
  type Readiness,
} from '@tollgate/envelope';
import express, { type Express } from 'express';
import type { ChainRpc } from './data/chain-rpc.js';
import type { ResponseCache } from './data/response-cache.js';
import type { SpanMemory } from './data/span-memory.js';
import { createLogPager } from './log-pager.js';
import { createInfoRoutes } from './routes/info-routes.js';
import { createLogsRoute } from './routes/logs-route.js';
import { createTransfersRoute } from './routes/transfers-route.js';

/** Everything the logs app needs, built by main.ts (or by a test). */
export interface AppDeps {
  logger: ReturnType<typeof createLogger>;
  rpcs: Readonly<Record<string, ChainRpc>>;
  spans: SpanMemory;
  cache: ResponseCache;
  proxySecret?: string;
  maxBlockRange: number;
  maxRpcCalls: number;
  cacheTtlMs: number;
  /** What `/readyz` reports; ready by default. */
  readiness?: () => Readiness | Promise<Readiness>;
}

/** The logs service's Express app, with no side effects until it is listened on. */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('query parser', 'simple');
  app.use(createRequestIdMiddleware());
  app.use(createRequestLogger(deps.logger));
  app.use(createHealthRoutes(deps.readiness ?? (() => ({ ready: true }))));
  app.use(createProxySecretMiddleware(deps.proxySecret));
  const pager = createLogPager({ rpcs: deps.rpcs, spans: deps.spans, cache: deps.cache, maxBlockRange: deps.maxBlockRange, maxRpcCalls: deps.maxRpcCalls });
  app.use(createLogsRoute(pager));
  app.use(createTransfersRoute(pager));
  app.use(createInfoRoutes({ maxBlockRange: deps.maxBlockRange, cacheTtlMs: deps.cacheTtlMs }));
  app.use(createNotFoundHandler());
  app.use(createErrorHandler(deps.logger));
  return app;
}
