import { errorEnvelopeSchema } from '@tollgate/envelope/core';
import type { OpenApiDocument } from '@tollgate/envelope/core';

/** One API's own OpenAPI document, or why it could not be had. */
export type ApiDocument = { api: string; document: OpenApiDocument } | { api: string; error: string };

/** What the combined reference says about the gateway itself. */
export interface MergeOptions {
  title: string;
  version: string;
  keyHeader: string;
  /** The gateway's own routes (dashboard, admin), already an OpenAPI `paths` object. */
  gatewayPaths?: Record<string, Record<string, unknown>>;
  /** Security schemes the gateway's own routes use, beside the key header. */
  securitySchemes?: Record<string, unknown>;
}

const HTTP_METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);

/**
 * Combines each API's document into one reference as the gateway serves it: paths under
 * `/{api}`, operations tagged with the API and prefixed ids, the key header as the security
 * scheme, and the gateway's errors (401, 402, 429, 502, 504) on every proxied operation.
 */
export function mergeOpenApi(apis: readonly ApiDocument[], options: MergeOptions): OpenApiDocument {
  const paths: Record<string, Record<string, unknown>> = { ...(options.gatewayPaths ?? {}) };
  const missing: string[] = [];
  for (const entry of apis) {
    if ('error' in entry) {
      missing.push(`${entry.api} (${entry.error})`);
      continue;
    }
    for (const [path, item] of Object.entries(entry.document.paths)) {
      if (!path.startsWith('/v1/') || path === '/v1/openapi.json') continue;
      const operations: Record<string, unknown> = {};
      for (const [method, op] of Object.entries(item)) {
        if (!HTTP_METHODS.has(method)) continue;
        const operation = op as Record<string, unknown> & { responses?: Record<string, unknown> };
        operations[method] = {
          ...operation,
          tags: [entry.api],
          operationId: `${entry.api}_${String(operation.operationId ?? `${method}${path}`)}`,
          security: [{ apiKey: [] }],
          responses: { ...GATEWAY_RESPONSES, ...(operation.responses ?? {}) },
        };
      }
      paths[`/${entry.api}${path}`] = operations;
    }
  }
  const unavailable = missing.length ? `\n\nNot reachable while this reference was built: ${missing.join(', ')}.` : '';
  return {
    openapi: '3.1.0',
    info: {
      title: options.title,
      version: options.version,
      description:
        `Every API behind the Tollgate gateway. Send your key in the \`${options.keyHeader}\` header. ` +
        'Answers carry X-RateLimit-Requests-Limit/Remaining/Reset and the IETF RateLimit-Policy/RateLimit fields.' +
        unavailable,
    },
    tags: apis.map(apiTag),
    paths,
    components: {
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: options.keyHeader }, ...options.securitySchemes },
      schemas: { ErrorEnvelope: errorEnvelopeSchema() },
    },
  };
}

/**
 * An API's tag: its name, the service's own description and, when the service has plan feature gates,
 * its `x-plan-features`, so the portal's reference pages read them from this one document.
 */
function apiTag(entry: ApiDocument): Record<string, unknown> {
  if ('error' in entry) return { name: entry.api };
  const description = (entry.document.info as { description?: unknown } | undefined)?.description;
  const features = entry.document['x-plan-features'];
  return { name: entry.api, ...(typeof description === 'string' ? { description } : {}), ...(features !== undefined ? { 'x-plan-features': features } : {}) };
}

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
});

const GATEWAY_RESPONSES = {
  '401': errorResponse('UNAUTHORIZED: key missing, unknown or revoked'),
  '402': errorResponse('SUBSCRIPTION_REQUIRED: no active subscription (and no playground allowance left)'),
  '429': errorResponse('RATE_LIMITED or QUOTA_EXCEEDED: per-second rate or monthly quota reached; see Retry-After'),
  '502': errorResponse('UPSTREAM_UNAVAILABLE: the service could not be reached (the call is refunded)'),
  '503': errorResponse('STORE_UNAVAILABLE: the quota store is down and the gateway fails closed'),
  '504': errorResponse('UPSTREAM_TIMEOUT: the service did not answer in time (the call is refunded)'),
};
