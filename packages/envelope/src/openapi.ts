import { STATUS_BY_CODE } from './app-error';
import type { ErrorCode } from './app-error';
import { errorEnvelopeSchema, okEnvelopeSchema } from './route-doc';
import type { RouteDoc } from './route-doc';

/** The `info` block of an OpenAPI document. */
export interface OpenApiInfo {
  title: string;
  version: string;
  description?: string;
}

/** An OpenAPI 3.1 document, kept loosely typed: it is generated, then served as JSON. */
export type OpenApiDocument = Record<string, unknown> & { openapi: string; paths: Record<string, Record<string, unknown>> };

// `{name}` segments of a path are required string parameters.
function pathParameters(route: RouteDoc): unknown[] {
  return [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } }));
}

function queryParameters(route: RouteDoc): unknown[] {
  const query = route.query;
  if (!query) return [];
  const required = new Set<string>((query.required as string[] | undefined) ?? []);
  return Object.entries(query.properties).map(([name, schema]) => ({
    name,
    in: 'query',
    required: required.has(name),
    ...(typeof schema.description === 'string' ? { description: schema.description } : {}),
    schema,
  }));
}

function errorResponses(codes: readonly ErrorCode[]): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) byStatus.set(STATUS_BY_CODE[code], [...(byStatus.get(STATUS_BY_CODE[code]) ?? []), code]);
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [
      String(status),
      { description: list.join(' or '), content: { 'application/json': { schema: errorEnvelopeSchema(list) } } },
    ]),
  );
}

/** Builds an OpenAPI 3.1 document from route descriptions; paths are taken as given. */
export function createOpenApiDocument(info: OpenApiInfo, routes: readonly RouteDoc[], extra: Record<string, unknown> = {}): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const operation: Record<string, unknown> = {
      summary: route.summary,
      ...(route.description ? { description: route.description } : {}),
      operationId: `${route.method}${route.path.replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ? c.toUpperCase() : ''))}`,
      parameters: [...pathParameters(route), ...queryParameters(route)],
      ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: route.body } } } } : {}),
      responses: {
        [String(route.successStatus ?? 200)]: {
          description: route.message,
          content: { 'application/json': { schema: okEnvelopeSchema(route.example === undefined ? route.data : { ...route.data, example: route.example }, route.message) } },
        },
        ...errorResponses(route.errors),
      },
    };
    paths[route.path] = { ...(paths[route.path] ?? {}), [route.method]: operation };
  }
  return { openapi: '3.1.0', info, paths, ...extra };
}
