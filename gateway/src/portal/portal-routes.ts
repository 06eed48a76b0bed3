import { dirname, resolve } from 'node:path';
import { Router } from 'express';
import { AppError } from '@tollgate/envelope/core';
import type { Response } from 'express';
import { pageHeaders } from '../http/page-headers';
import { SHARED_WEB_ASSETS, staticAssets } from '../http/web-assets';
import { NOT_FOUND_PAGE, PORTAL_PAGES, apiReferencePages, renderPortalPage } from './portal-pages';

/** The portal's static files (ES modules and one stylesheet): `gateway/portal/`, two levels up from both `src/portal/` and `dist/portal/`. */
export const PORTAL_ASSETS = resolve(__dirname, '../../portal');
const UPLOT = dirname(require.resolve('uplot/package.json'));
// The logo (web/logo.svg, also the brand mark in every page's header) and the same drawn at 16, 32 and 48 px.
const LOGO_SVG = resolve(SHARED_WEB_ASSETS, 'logo.svg');
const FAVICON_ICO = resolve(SHARED_WEB_ASSETS, 'favicon.ico');

/** What the portal routes need. */
export interface PortalDeps {
  /** The key header, for Try it and the copied snippets. */
  keyHeader: string;
  /** The APIs in the catalogue now, one reference page each. */
  apis?: () => readonly string[];
}

/**
 * `/` (redirect), `/portal/*` pages (one HTML shell each, rendered once per catalogue), the portal's own
 * assets and uPlot from the installed package (no CDN: works offline and in the container).
 */
export function createPortalRoutes(deps: PortalDeps): Router {
  const router = Router();
  // Rendered again when a catalogue reload changes which APIs there are (every page lists their reference pages).
  let rendered: { apis: string; pages: Map<string, string>; notFound: string } | undefined;
  const current = (): NonNullable<typeof rendered> => {
    const apis = deps.apis?.() ?? [];
    const key = apis.join(',');
    if (rendered?.apis !== key) {
      const options = { keyHeader: deps.keyHeader, apis };
      rendered = { apis: key, pages: new Map([...PORTAL_PAGES, ...apiReferencePages(apis)].map((page) => [page.path, renderPortalPage(page, options)])), notFound: renderPortalPage(NOT_FOUND_PAGE, options) };
    }
    return rendered;
  };
  const sendPage = (res: Response, html: string, status = 200): void => {
    // Pages carry no secrets but do depend on the deployment; revalidate rather than cache.
    res.status(status).set('Cache-Control', 'no-cache').type('html').send(html);
  };

  router.get('/', (_req, res) => res.redirect(302, '/portal/'));
  // The site's icon, for every page (portal, console, /docs) and for browsers that ask /favicon.ico unbidden.
  router.get(['/favicon.ico', '/favicon.svg'], pageHeaders, (req, res) => {
    res.set('Cache-Control', 'public, max-age=86400').sendFile(req.path === '/favicon.ico' ? FAVICON_ICO : LOGO_SVG);
  });
  router.use('/portal', pageHeaders);
  // Routing is not strict, so this also matches `/portal/`: only the bare path is redirected.
  router.get('/portal', (req, res, next) => (req.path === '/portal' ? res.redirect(301, '/portal/') : next()));
  router.use('/portal/assets/shared', staticAssets(SHARED_WEB_ASSETS));
  router.use('/portal/assets', staticAssets(PORTAL_ASSETS));
  router.use('/portal/vendor/uplot', staticAssets(resolve(UPLOT, 'dist')));
  router.get('/portal/{*rest}', (req, res) => {
    const { pages, notFound } = current();
    const html = pages.get(req.path) ?? pages.get(req.path.replace(/\/$/, ''));
    if (html !== undefined) sendPage(res, html);
    else if (req.path.startsWith('/portal/assets/') || req.path.startsWith('/portal/vendor/')) throw new AppError('NOT_FOUND', `no portal asset at ${req.path}`);
    else sendPage(res, notFound, 404);
  });
  return router;
}
