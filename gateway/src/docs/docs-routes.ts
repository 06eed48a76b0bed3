import { dirname } from 'node:path';
import express, { Router } from 'express';
import type { Request } from 'express';
import type { RouteDoc } from '@tollgate/envelope/core';
import type { ServiceDocuments } from '../data/service-documents';
import { mergeOpenApi } from '../domain/merge-openapi';
import { pageHeaders } from '../http/page-headers';
import { routePaths } from '../http/route-openapi';
import { DOCS_INIT, DOCS_PAGE } from './docs-page';

/** What the docs routes need. */
export interface DocsDeps {
  documents: ServiceDocuments;
  keyHeader: string;
  /** The gateway's own routes, described by the audiences that serve them (see gateway-route-docs.ts). */
  gatewayRoutes: GatewayRouteDocs;
  /** PUBLIC_URL: the origin the reference names as its server; without it, the one it was asked at. */
  publicUrl?: string;
}

/**
 * The gateway's own routes for the customers' reference: self-service with the key or a session.
 * The admin API is not among them: operators read it at /admin/docs, behind the console's sign-in.
 */
export interface GatewayRouteDocs {
  dashboard: RouteDoc[];
  /** The portal session cookie's name, for its security scheme. */
  sessionCookie: string;
}

const SWAGGER_UI = dirname(require.resolve('swagger-ui-dist/package.json'));

const PUBLIC_DASHBOARD_PATHS = new Set(['/dashboard/v1/plans', '/dashboard/v1/signup', '/dashboard/v1/sign-in', '/dashboard/v1/sign-in/verify', '/dashboard/v1/sign-in/link']);

function gatewayPaths(routes: GatewayRouteDocs): Record<string, Record<string, unknown>> {
  const dashboard = routePaths(routes.dashboard, 'dashboard', [{ apiKey: [] }, { portalSession: [] }]);
  // Dashboard routes take a key or the portal's session cookie; a few take neither.
  for (const [path, item] of Object.entries(dashboard)) {
    if (PUBLIC_DASHBOARD_PATHS.has(path)) for (const op of Object.values(item)) Object.assign(op as object, { security: [] });
  }
  return dashboard;
}

/**
 * The base URL of every path in the reference: PUBLIC_URL, the gateway's public origin, when set;
 * else the origin the document was asked at (behind a TRUSTED_PROXIES hop, the one it forwarded),
 * so a client generated from it calls the gateway it was read from. A Host that is no origin
 * gives the relative `/`, which OpenAPI reads as the document's own origin.
 */
function serverUrl(req: Request, publicUrl: string | undefined): string {
  if (publicUrl) return publicUrl.replace(/\/$/, '');
  try {
    const url = new URL(`${req.protocol}://${req.get('host') ?? ''}`);
    return url.pathname === '/' && !url.username && !url.password && !url.search && !url.hash ? url.origin : '/';
  } catch {
    return '/';
  }
}

/**
 * `GET /docs` (Swagger UI, served from the installed package: no CDN) and `GET /docs/openapi.json`,
 * one reference for every API under its `/{api}` prefix, built from each service's own
 * `/v1/openapi.json` (see service-documents.ts: asked with the proxy secret, reused for a minute).
 */
export function createDocsRoutes(deps: DocsDeps): Router {
  const router = Router();
  // The portal's CSP and frame protection: the page holds what is typed into Authorize.
  router.use('/docs', pageHeaders);
  router.get('/docs/openapi.json', async (req, res) => {
    const apis = await deps.documents.all();
    if (!deps.publicUrl) res.vary('Host');
    res.json({
      ...mergeOpenApi(apis, {
        title: 'Tollgate APIs',
        version: '1.0.0',
        keyHeader: deps.keyHeader,
        gatewayPaths: gatewayPaths(deps.gatewayRoutes),
        securitySchemes: {
          portalSession: { type: 'apiKey', in: 'cookie', name: deps.gatewayRoutes.sessionCookie, description: 'The portal session (POST /dashboard/v1/sign-in/verify); every POST, PUT and DELETE with it also needs the x-csrf-token header' },
        },
      }),
      servers: [{ url: serverUrl(req, deps.publicUrl), description: 'This gateway' }],
    });
  });
  router.get(['/docs', '/docs/'], (_req, res) => {
    res.type('html').send(DOCS_PAGE);
  });
  router.get('/docs/init.js', (_req, res) => {
    res.type('text/javascript').send(DOCS_INIT);
  });
  router.use('/docs/assets', express.static(SWAGGER_UI, { index: false, maxAge: '1h' }));
  return router;
}
