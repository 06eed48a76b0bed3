// The envelope without its Express routes, its logger and the response validator: what a
// process that serves nothing needs (the operator CLI). Express and pino take about 140 ms of CPU
// to load, a third of a CLI command's start; `index.ts` is this and the rest.
export { AppError, STATUS_BY_CODE, isAppError } from './app-error';
export type { AppErrorOptions, ErrorCode } from './app-error';
export { errorEnvelope, okEnvelope, requestIdOf, sendOk } from './envelope';
export type { EnvelopeMeta, ErrorEnvelope, OkEnvelope } from './envelope';
export { REQUEST_ID_HEADER, createRequestIdMiddleware } from './request-id';
export { createErrorHandler, createNotFoundHandler } from './error-handler';
export { createQueryParser } from './validate-query';
export type { QueryParser, QuerySchema } from './validate-query';
export { PROXY_SECRET_HEADER, createProxySecretMiddleware } from './proxy-secret';
export { REDACTED, redactUrl } from './redact-url';
export { ConfigError, parseEnv } from './parse-env';
export { META_SCHEMA, errorEnvelopeSchema, okEnvelopeSchema } from './route-doc';
export type { RouteDoc } from './route-doc';
export { createOpenApiDocument } from './openapi';
export type { OpenApiDocument, OpenApiInfo } from './openapi';
export { ACCESS_HEADER, SUBSCRIPTION_HEADER, accessFromHeader, planFromHeader } from './plan-header';
export { MIN_SECRET_LENGTH, secretSchema } from './secret-schema';
export { READ_ONLY_METHODS, createMethodNotAllowedHandler, readOnlyRoute } from './read-only-route';
export { summarizeError } from './error-summary';
export type { ErrorSummary } from './error-summary';
export { ownEntry } from './own-entry';
