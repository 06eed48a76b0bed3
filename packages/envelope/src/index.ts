// Everything the deployables share: the core (core.ts, what a process that serves nothing needs)
// and the Express routes, logger, server and response validator. Names, not `export *`: Node's ESM
// loader, given this module through tsx (the services), finds only the names it can see.
export { AppError, STATUS_BY_CODE, isAppError, errorEnvelope, okEnvelope, requestIdOf, sendOk, REQUEST_ID_HEADER, createRequestIdMiddleware, createErrorHandler, createNotFoundHandler, createQueryParser, PROXY_SECRET_HEADER, createProxySecretMiddleware, REDACTED, redactUrl, ConfigError, parseEnv, META_SCHEMA, errorEnvelopeSchema, okEnvelopeSchema, createOpenApiDocument, ACCESS_HEADER, SUBSCRIPTION_HEADER, accessFromHeader, planFromHeader, MIN_SECRET_LENGTH, secretSchema, READ_ONLY_METHODS, createMethodNotAllowedHandler, readOnlyRoute, summarizeError, ownEntry } from './core';
export type { AppErrorOptions, ErrorCode, EnvelopeMeta, ErrorEnvelope, OkEnvelope, QueryParser, QuerySchema, RouteDoc, OpenApiDocument, OpenApiInfo, ErrorSummary } from './core';
export { HEALTHZ_ROUTE, createHealthRoutes, createReadyzRoute } from './health-routes';
export type { Readiness } from './health-routes';
export { createLogger } from './logger';
export { createBatchedDestination } from './batched-destination';
export { createJsonLineWriter } from './json-line';
export type { JsonLineWriter, LineLevel } from './json-line';
export type { CreateLoggerOptions, Logger } from './logger';
export { createRequestLogger } from './request-logger';
export { SERVE_TIMEOUTS, createTimedServer, serve } from './serve';
export type { ServeOptions, Serving } from './serve';
export { validateResponse } from './validate-response';
