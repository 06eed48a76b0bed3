import { dirname } from 'node:path';
import express, { Router } from 'express';
import { PROXY_SECRET_HEADER, createOpenApiDocument } from '@tollgate/envelope';
import type { OpenApiDocument, RouteDoc } from '@tollgate/envelope';
import { mergeOpenApi } from '../domain/merge-openapi';
import type { ApiDocument } from '../domain/merge-openapi';
import { ADMIN_ROUTES } from './admin-routes';
import { DOCS_PAGE } from './docs-page';
import { DASHBOARD_ROUTES } from './dashboard-routes';

/** What the docs routes need. */
export interface DocsDeps {
  upstreams: Record<string, string>;
  proxySecret?: string;
  keyHeader: string;
  clock: () => number;
  /** How long a combined document is reused before the services are asked again. */
  cacheMs?: number;
  fetchTimeoutMs?: number;
}

const SWAGGER_UI = dirname(require.resolve('swagger-ui-dist/package.json'));

// The gateway's own routes: self-service with the key, administration with the bearer token.
function gatewayPaths(): Record<string, Record<string, unknown>> {
  const section = (routes: Record<string, RouteDoc>, tag: string, security: Record<string, string[]>) => {
    const doc = createOpenApiDocument({ title: tag, version: '1' }, Object.values(routes));
    for (const item of Object.values(doc.paths)) {
      for (const op of Object.values(item)) Object.assign(op as object, { tags: [tag], security: [security] });
    }
    return doc.paths;
  };
  return { ...section(DASHBOARD_ROUTES, 'dashboard', { apiKey: [] }), ...section(ADMIN_ROUTES, 'admin', { adminToken: [] }) };
}

/**
 * `GET /docs` (Swagger UI, served from the installed package: no CDN) and `GET /docs/openapi.json`,
 * one reference for every API under its `/{api}` prefix, built from each service's own
 * `/v1/openapi.json` (asked with the proxy secret) and reused for `cacheMs`.
 */
export function createDocsRoutes(deps: DocsDeps): Router {
  const router = Router();
  let cached: { at: number; document: OpenApiDocument } | undefined;

  async function fetchApi(api: string, base: string): Promise<ApiDocument> {
    try {
      const res = await fetch(`${base}/v1/openapi.json`, {
        headers: deps.proxySecret ? { [PROXY_SECRET_HEADER]: deps.proxySecret } : {},
        signal: AbortSignal.timeout(deps.fetchTimeoutMs ?? 3_000),
      });
      if (!res.ok) return { api, error: `status ${res.status}` };
      return { api, document: (await res.json()) as OpenApiDocument };
    } catch (err) {
      return { api, error: (err as Error).message };
    }
  }

  router.get('/docs/openapi.json', async (_req, res) => {
    const now = deps.clock();
    if (!cached || now - cached.at > (deps.cacheMs ?? 60_000)) {
      const apis = await Promise.all(Object.entries(deps.upstreams).map(([api, base]) => fetchApi(api, base)));
      const document = mergeOpenApi(apis, {
        title: 'Tollgate APIs',
        version: '1.0.0',
        keyHeader: deps.keyHeader,
        gatewayPaths: gatewayPaths(),
        securitySchemes: { adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN' } },
      });
      // A document missing an API is not kept, so the next visit asks again.
      cached = apis.every((a) => 'document' in a) ? { at: now, document } : undefined;
      res.json(document);
      return;
    }
    res.json(cached.document);
  });
  router.get(['/docs', '/docs/'], (_req, res) => {
    res.type('html').send(DOCS_PAGE);
  });
  router.use('/docs/assets', express.static(SWAGGER_UI, { index: false, maxAge: '1h' }));
  return router;
}
